package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MaxPlusSemiringTest {

    private final MaxPlusSemiring t = MaxPlusSemiring.INSTANCE;

    @Test
    void maxAndPlus() {
        assertThat(t.plus(3.0, 5.0)).isEqualTo(5.0);
        assertThat(t.times(3.0, 5.0)).isEqualTo(8.0);
        assertThat(t.times(3.0, Double.NEGATIVE_INFINITY)).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(t.zero()).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(t.one()).isEqualTo(0.0);
    }

    @Test
    void textForm() {
        assertThat(t.format(Double.NEGATIVE_INFINITY)).isEqualTo("-inf");
        assertThat(t.format(4.0)).isEqualTo("4");
        assertThat(t.parse("-inf")).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(t.parse("-Infinity")).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(t.parse("0.75")).isEqualTo(0.75);
    }

    @Test
    void parseRejectsValuesOutsideTheSemiring() {
        assertThatThrownBy(() -> t.parse("inf"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("+inf is not in the semiring");
        assertThatThrownBy(() -> t.parse("+inf")).isInstanceOf(PayloadFormatException.class);
        assertThatThrownBy(() -> t.parse("nan"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("NaN is not in the semiring");
        assertThatThrownBy(() -> t.parse("five")).isInstanceOf(PayloadFormatException.class);
    }

    @Test
    void finiteSumBeyondTheDoubleRangeThrows() {
        assertThatThrownBy(() -> t.times(-Double.MAX_VALUE, -Double.MAX_VALUE))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("max-plus overflow");
    }
}
