package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BooleanSemiringTest {

    private final BooleanSemiring b = BooleanSemiring.INSTANCE;

    @Test
    void orAndAnd() {
        assertThat(b.plus(true, false)).isTrue();
        assertThat(b.plus(false, false)).isFalse();
        assertThat(b.times(true, false)).isFalse();
        assertThat(b.times(true, true)).isTrue();
        assertThat(b.zero()).isFalse();
        assertThat(b.one()).isTrue();
    }

    @Test
    void parseAcceptsWordsInAnyCaseAndDigits() {
        assertThat(b.parse("true")).isTrue();
        assertThat(b.parse("TRUE")).isTrue();
        assertThat(b.parse(" False ")).isFalse();
        assertThat(b.parse("1")).isTrue();
        assertThat(b.parse("0")).isFalse();
        assertThat(b.format(true)).isEqualTo("true");
        assertThat(b.format(false)).isEqualTo("false");
    }

    @Test
    void parseRejectsOtherText() {
        assertThatThrownBy(() -> b.parse("yes"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a Boolean: 'yes'");
        assertThatThrownBy(() -> b.parse("2")).isInstanceOf(PayloadFormatException.class);
    }

    @Test
    void properties() {
        assertThat(b.properties())
                .containsExactlyInAnyOrder(
                        SemiringProperty.COMMUTATIVE, SemiringProperty.IDEMPOTENT, SemiringProperty.POSITIVE);
    }
}
