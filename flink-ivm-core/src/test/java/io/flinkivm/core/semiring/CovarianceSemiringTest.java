package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CovarianceSemiringTest {

    private final CovarianceSemiring cov = CovarianceSemiring.of(2);

    @Test
    void identities() {
        assertThat(cov.name()).isEqualTo("covariance:2");
        assertThat(cov.zero()).isEqualTo(CovarianceTriple.of(0, new double[2], new double[4]));
        assertThat(cov.one()).isEqualTo(CovarianceTriple.of(1, new double[2], new double[4]));
        assertThat(cov.format(cov.zero())).isEqualTo("0;0 0;0 0 0 0");
        assertThat(cov.format(cov.one())).isEqualTo("1;0 0;0 0 0 0");
        assertThat(cov).isEqualTo(CovarianceSemiring.of(2)).isNotEqualTo(CovarianceSemiring.of(3));
        assertThat(cov.hashCode()).isEqualTo(CovarianceSemiring.of(2).hashCode());
    }

    @Test
    void parseTripleOrFeatureVector() {
        assertThat(cov.parse("1 2")).isEqualTo(CovarianceTriple.lift(1, 2));
        assertThat(cov.parse("  1.5   -2 ")).isEqualTo(CovarianceTriple.lift(1.5, -2));
        assertThat(cov.parse("2;4 1;10 -1 -1 5"))
                .isEqualTo(CovarianceTriple.lift(1, 2).plus(CovarianceTriple.lift(3, -1)));
        assertThat(cov.parse(" 2 ; 4  1 ; 10 -1 -1 5 ")).isEqualTo(cov.parse("2;4 1;10 -1 -1 5"));
    }

    @Test
    void parseRejectsWrongShapes() {
        assertThatThrownBy(() -> cov.parse("1 2 3"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a covariance:2 payload: expected 2 features, got 3 in '1 2 3'");
        assertThatThrownBy(() -> cov.parse("1;1 2;1 2 2"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("expected 4 products (2×2), got 3");
        assertThatThrownBy(() -> cov.parse("1;1;1 2 2 4"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("expected 2 sums, got 1");
        assertThatThrownBy(() -> cov.parse("1;2"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("expected 'c;s1 .. s2;q11 .. q22' or a feature vector 'x1 .. x2'");
        assertThatThrownBy(() -> cov.parse("-1;0 0;0 0 0 0"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("count '-1' is not a natural number");
        assertThatThrownBy(() -> cov.parse("1 x"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("'x' is not a finite number");
        assertThatThrownBy(() -> cov.parse("0;1 0;0 0 0 0"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("count 0 must be all zeros");
    }

    @Test
    void triplesOfAnotherDimensionAreRejected() {
        CovarianceTriple three = CovarianceTriple.lift(1, 2, 3);
        assertThatThrownBy(() -> cov.times(cov.one(), three))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("covariance:2 got a covariance triple over 3 features, expected 2");
        assertThatThrownBy(() -> cov.plus(three, cov.zero())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void factoryNeedsAFeature() {
        assertThatThrownBy(() -> CovarianceSemiring.of(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one feature");
    }

    @Test
    void properties() {
        assertThat(cov.properties()).containsExactlyInAnyOrder(SemiringProperty.COMMUTATIVE, SemiringProperty.POSITIVE);
    }
}
