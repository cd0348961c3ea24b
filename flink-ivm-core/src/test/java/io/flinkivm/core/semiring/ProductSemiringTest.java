package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ProductSemiringTest {

    private static final ProductSemiring SUM_MIN =
            ProductSemiring.of(List.of(LongComponent.INTEGER, LongComponent.MIN));

    static Stream<ProductSemiring> products() {
        return Stream.of(
                ProductSemiring.of(List.of()),
                SUM_MIN,
                ProductSemiring.of(List.of(
                        LongComponent.NATURAL,
                        LongComponent.INTEGER,
                        LongComponent.MIN,
                        LongComponent.MAX,
                        LongComponent.MIN_DOUBLE,
                        LongComponent.MAX_DOUBLE)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("products")
    void lawsHoldAndPositivityWithTheCount(ProductSemiring s) {
        SemiringLawsTest.checkLaws(s, new Random(7 + s.arity()));
        SemiringLawsTest.checkSerialization(s, new Random(11));
    }

    @Test
    void namesItsComponentsAfterTheCount() {
        assertThat(SUM_MIN.name()).isEqualTo("product(natural,integer,min)");
        assertThat(SUM_MIN.format(SUM_MIN.zero())).isEqualTo("0;0;inf");
        assertThat(SUM_MIN.format(SUM_MIN.one())).isEqualTo("1;1;0");
    }

    @Test
    void aNegativeSumKeepsTheRowAliveThroughItsCount() {
        Product a = SUM_MIN.payload(1, 5, 3);
        Product b = SUM_MIN.payload(1, -5, 7);
        Product sum = SUM_MIN.plus(a, b);
        assertThat(sum).isEqualTo(SUM_MIN.payload(2, 0, 3));
        assertThat(SUM_MIN.isZero(sum)).isFalse();
        assertThat(SUM_MIN.times(a, b)).isEqualTo(SUM_MIN.payload(1, -25, 10));
    }

    @Test
    void minTimesInfinityIsInfinity() {
        Product none = SUM_MIN.payload(1, 2, Long.MAX_VALUE);
        assertThat(SUM_MIN.times(none, SUM_MIN.payload(1, 1, 4)).get(2)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void overflowIsAnErrorNotAWrap() {
        Product big = SUM_MIN.payload(1, Long.MAX_VALUE / 2 + 1, 0);
        assertThatThrownBy(() -> SUM_MIN.plus(big, big))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("integer overflow");
        assertThatThrownBy(() -> SUM_MIN.times(SUM_MIN.payload(1, 1, Long.MAX_VALUE - 1), SUM_MIN.payload(1, 1, 1)))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("reaches the infinity");
    }

    @Test
    void aPayloadWithCountZeroMustBeTheZero() {
        assertThatThrownBy(() -> SUM_MIN.parse("0;3;inf"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("with count 0 must be the zero 0;0;inf");
        assertThatThrownBy(() -> SUM_MIN.parse("1;3"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("expected 3 values");
        assertThatThrownBy(() -> SUM_MIN.parse("-1;3;0"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a natural value");
        assertThat(SUM_MIN.parse("2;-7;inf")).isEqualTo(SUM_MIN.payload(2, -7, Long.MAX_VALUE));
    }
}
