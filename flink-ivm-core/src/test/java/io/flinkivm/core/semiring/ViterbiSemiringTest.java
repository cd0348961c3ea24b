package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ViterbiSemiringTest {

    private final ViterbiSemiring v = ViterbiSemiring.INSTANCE;

    @Test
    void maxAndTimes() {
        assertThat(v.plus(0.25, 0.5)).isEqualTo(0.5);
        assertThat(v.times(0.25, 0.5)).isEqualTo(0.125);
        assertThat(v.zero()).isEqualTo(0.0);
        assertThat(v.one()).isEqualTo(1.0);
    }

    @Test
    void textForm() {
        assertThat(v.format(1.0)).isEqualTo("1");
        assertThat(v.format(0.0)).isEqualTo("0");
        assertThat(v.format(0.125)).isEqualTo("0.125");
        assertThat(v.parse("0.3")).isEqualTo(0.3);
        assertThat(v.parse(" 1 ")).isEqualTo(1.0);
        assertThat(v.parse("-0")).isEqualTo(0.0);
    }

    @Test
    void parseRejectsValuesOutsideTheUnitInterval() {
        assertThatThrownBy(() -> v.parse("1.5"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("'1.5' is outside [0, 1]");
        assertThatThrownBy(() -> v.parse("-0.1")).isInstanceOf(PayloadFormatException.class);
        assertThatThrownBy(() -> v.parse("NaN")).isInstanceOf(PayloadFormatException.class);
        assertThatThrownBy(() -> v.parse("inf")).isInstanceOf(PayloadFormatException.class);
    }

    @Test
    void underflowToZeroIsThePrecisionLimit() {
        assertThat(v.times(1e-200, 1e-200)).isEqualTo(0.0);
        assertThat(v.isZero(v.times(1e-200, 1e-200))).isTrue();
    }
}
