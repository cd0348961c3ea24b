package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MinPlusSemiringTest {

    private final MinPlusSemiring t = MinPlusSemiring.INSTANCE;

    @Test
    void minAndPlus() {
        assertThat(t.plus(3.0, 5.0)).isEqualTo(3.0);
        assertThat(t.times(3.0, 5.0)).isEqualTo(8.0);
        assertThat(t.times(3.0, Double.POSITIVE_INFINITY)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(t.zero()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(t.one()).isEqualTo(0.0);
        assertThat(t.isZero(Double.POSITIVE_INFINITY)).isTrue();
    }

    @Test
    void negativeZeroIsNormalised() {
        assertThat(t.times(-0.0, -0.0)).isEqualTo(0.0);
        assertThat(t.plus(-0.0, 0.0)).isEqualTo(0.0);
        assertThat(t.parse("-0")).isEqualTo(0.0);
    }

    @Test
    void finiteSumBeyondTheDoubleRangeThrows() {
        assertThatThrownBy(() -> t.times(Double.MAX_VALUE, Double.MAX_VALUE))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("min-plus overflow");
    }

    @Test
    void formatIsCompactAndRoundTrips() {
        assertThat(t.format(3.0)).isEqualTo("3");
        assertThat(t.format(-2.5)).isEqualTo("-2.5");
        assertThat(t.format(Double.POSITIVE_INFINITY)).isEqualTo("inf");
        assertThat(t.format(1e20)).isEqualTo("1.0E20");
        for (double x : new double[] {0.1, 1.0 / 3, 1e-300, 123456789.125, Double.MAX_VALUE, -7}) {
            assertThat(t.parse(t.format(x))).isEqualTo(x);
        }
    }

    @Test
    void parseAcceptsSpellingsOfInfinity() {
        for (String inf : new String[] {"inf", "+inf", "infinity", "Infinity", "+INF", " inf "}) {
            assertThat(t.parse(inf)).as(inf).isEqualTo(Double.POSITIVE_INFINITY);
        }
        assertThat(t.parse("2.5")).isEqualTo(2.5);
        assertThat(t.parse("-4")).isEqualTo(-4.0);
        assertThat(t.parse("1e3")).isEqualTo(1000.0);
    }

    @Test
    void parseRejectsValuesOutsideTheSemiring() {
        assertThatThrownBy(() -> t.parse("-inf"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("-inf is not in the semiring");
        assertThatThrownBy(() -> t.parse("NaN"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("NaN is not in the semiring");
        assertThatThrownBy(() -> t.parse("abc"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a min-plus value")
                .hasMessageContaining("'abc'");
        assertThatThrownBy(() -> t.parse("1d")).isInstanceOf(PayloadFormatException.class);
        assertThatThrownBy(() -> t.parse("0x10")).isInstanceOf(PayloadFormatException.class);
        assertThatThrownBy(() -> t.parse("1e999"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("exceeds the double range");
    }
}
