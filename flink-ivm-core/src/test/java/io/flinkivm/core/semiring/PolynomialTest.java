package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PolynomialTest {

    private static final Polynomial X = Polynomial.variable("x");
    private static final Polynomial Y = Polynomial.variable("y");

    @Test
    void likeTermsAddUpWhateverTheFactorOrder() {
        Polynomial p = X.times(Y).plus(Y.times(X));
        assertThat(p).isEqualTo(Polynomial.constant(2).times(X).times(Y));
        assertThat(p).isEqualTo(Polynomial.parse("2*x*y"));
        assertThat(p.hashCode()).isEqualTo(Polynomial.parse("y * 2 * x").hashCode());
        assertThat(p.toString()).isEqualTo("2*x*y");
    }

    @Test
    void formatIsCanonicalAndStable() {
        Polynomial p = Polynomial.parse("t3 + s2*r1*s2 + r1*s2^2");
        assertThat(p.toString()).isEqualTo("2*r1*s2^2 + t3");
        assertThat(Polynomial.parse(p.toString())).isEqualTo(p);
        assertThat(Polynomial.parse("1 + y + x + x*y + x^2").toString()).isEqualTo("x^2 + x*y + x + y + 1");
        assertThat(Polynomial.parse("3").toString()).isEqualTo("3");
        assertThat(Polynomial.ZERO.toString()).isEqualTo("0");
        assertThat(Polynomial.ONE.toString()).isEqualTo("1");
    }

    @Test
    void timesMultipliesOut() {
        Polynomial p = X.plus(Y).times(X.plus(Y));
        assertThat(p.toString()).isEqualTo("x^2 + 2*x*y + y^2");
        assertThat(X.plus(Polynomial.ONE).times(Polynomial.constant(3)).toString())
                .isEqualTo("3*x + 3");
        assertThat(X.times(Polynomial.ZERO)).isEqualTo(Polynomial.ZERO);
        assertThat(X.times(Polynomial.ONE)).isEqualTo(X);
    }

    @Test
    void parseAcceptsWhitespaceVariations() {
        Polynomial expected = Polynomial.parse("2*r1*s2^2 + t3");
        assertThat(Polynomial.parse("  2 * r1 * s2 ^ 2+t3 ")).isEqualTo(expected);
        assertThat(Polynomial.parse("t3\t+\n2*s2^2*r1")).isEqualTo(expected);
        assertThat(Polynomial.parse("x^0")).isEqualTo(Polynomial.ONE);
        assertThat(Polynomial.parse("0*x + 0")).isEqualTo(Polynomial.ZERO);
        assertThat(Polynomial.parse("s_2")).isEqualTo(Polynomial.variable("s_2"));
    }

    @Test
    void parseErrorsNameTheColumn() {
        assertThatThrownBy(() -> Polynomial.parse("x + * y"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("expected a variable or a natural number at column 5 of 'x + * y'");
        assertThatThrownBy(() -> Polynomial.parse("x +"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("at the end (column 4)");
        assertThatThrownBy(() -> Polynomial.parse("x y"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("expected '+', '*' or the end at column 3");
        assertThatThrownBy(() -> Polynomial.parse("x^y"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("expected an exponent (a natural number) at column 3");
        assertThatThrownBy(() -> Polynomial.parse("2 - x"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("at column 3");
        assertThatThrownBy(() -> Polynomial.parse(""))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("at the end (column 1)");
        assertThatThrownBy(() -> Polynomial.parse("99999999999999999999*x"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("a number exceeds 64 bits at column 1");
    }

    @Test
    void coefficientOverflowThrows() {
        Polynomial big = Polynomial.constant(Long.MAX_VALUE).times(X);
        assertThatThrownBy(() -> big.plus(X))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("provenance coefficient overflow: 9223372036854775807 + 1 exceeds 64 bits");
        assertThatThrownBy(() -> big.times(Polynomial.constant(2)))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("exceeds 64 bits");
    }

    @Test
    void factoriesValidate() {
        assertThatThrownBy(() -> Polynomial.variable("1x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a polynomial variable: '1x'");
        assertThatThrownBy(() -> Polynomial.constant(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a natural coefficient: -1");
        assertThat(Polynomial.constant(0)).isSameAs(Polynomial.ZERO);
        assertThat(Polynomial.constant(1)).isSameAs(Polynomial.ONE);
    }

    @Test
    void termsAreReadable() {
        Polynomial p = Polynomial.parse("2*r1*s2^2 + t3");
        assertThat(p.termCount()).isEqualTo(2);
        assertThat(p.coefficient(0)).isEqualTo(2);
        assertThat(p.monomial(0)).containsExactly(Map.entry("r1", 1), Map.entry("s2", 2));
        assertThat(p.monomial(1)).containsExactly(Map.entry("t3", 1));
        assertThat(p.variables()).containsExactly("r1", "s2", "t3");
        assertThat(Polynomial.ZERO.isZero()).isTrue();
    }
}
