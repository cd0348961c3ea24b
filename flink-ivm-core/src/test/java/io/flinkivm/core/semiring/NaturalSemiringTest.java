package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NaturalSemiringTest {

    private final NaturalSemiring n = NaturalSemiring.INSTANCE;

    @Test
    void arithmetic() {
        assertThat(n.plus(2L, 3L)).isEqualTo(5L);
        assertThat(n.times(2L, 3L)).isEqualTo(6L);
        assertThat(n.zero()).isEqualTo(0L);
        assertThat(n.one()).isEqualTo(1L);
        assertThat(n.plus(Long.MAX_VALUE - 1, 1L)).isEqualTo(Long.MAX_VALUE);
        assertThat(n.times(1L << 31, 1L << 31)).isEqualTo(1L << 62);
    }

    @Test
    void additionOverflowThrowsInsteadOfWrapping() {
        assertThatThrownBy(() -> n.plus(Long.MAX_VALUE, 1L))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("natural-number overflow: 9223372036854775807 + 1 exceeds 64 bits");
    }

    @Test
    void multiplicationOverflowThrowsInsteadOfWrapping() {
        assertThatThrownBy(() -> n.times(1L << 32, 1L << 31))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("natural-number overflow: 4294967296 * 2147483648 exceeds 64 bits");
    }

    @Test
    void unboxedOperationsAgreeWithTheBoxedOnes() {
        assertThat(n.unboxedPlus().applyAsLong(2L, 3L)).isEqualTo(5L);
        assertThat(n.unboxedTimes().applyAsLong(2L, 3L)).isEqualTo(6L);
        assertThatThrownBy(() -> n.unboxedTimes().applyAsLong(1L << 32, 1L << 31))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("natural-number overflow: 4294967296 * 2147483648 exceeds 64 bits");
        assertThatThrownBy(() -> n.unboxedTimes().applyAsLong(2L, -3L)).isInstanceOf(PayloadFormatException.class);
        assertThat(MinPlusSemiring.INSTANCE.unboxedTimes()).isNull();
    }

    @Test
    void negativeOperandsAreRejected() {
        assertThatThrownBy(() -> n.plus(-1L, 1L))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a natural number: -1");
        assertThatThrownBy(() -> n.times(2L, -3L))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a natural number: -3");
    }

    @Test
    void parseAndFormat() {
        assertThat(n.parse("42")).isEqualTo(42L);
        assertThat(n.parse(" 7 ")).isEqualTo(7L);
        assertThat(n.parse("0")).isEqualTo(0L);
        assertThat(n.parse("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(n.format(42L)).isEqualTo("42");
    }

    @Test
    void parseRejectsWhatIsNotANaturalNumber() {
        assertThatThrownBy(() -> n.parse("x"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a natural number: 'x'");
        assertThatThrownBy(() -> n.parse("-3"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a natural number: '-3'");
        assertThatThrownBy(() -> n.parse("1.5")).isInstanceOf(PayloadFormatException.class);
        assertThatThrownBy(() -> n.parse("")).isInstanceOf(PayloadFormatException.class);
        assertThatThrownBy(() -> n.parse("9223372036854775808"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("exceeds 64 bits");
    }

    @Test
    void declaresCommutativeAndPositiveOnly() {
        assertThat(n.properties()).containsExactlyInAnyOrder(SemiringProperty.COMMUTATIVE, SemiringProperty.POSITIVE);
        assertThat(n.name()).isEqualTo("natural");
        assertThat(n.payloadClass()).isEqualTo(Long.class);
    }
}
