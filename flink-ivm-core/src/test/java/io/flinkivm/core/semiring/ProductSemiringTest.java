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
                        LongComponent.MAX_DOUBLE)),
                ProductSemiring.of(CHAINS),
                ProductSemiring.of(List.of(
                        LongComponent.INTEGER,
                        ChainComponent.min(Chain.of(Chain.Kind.STRING, "STRING")),
                        LongComponent.MIN,
                        ChainComponent.max(Chain.of(Chain.Kind.DATE, "DATE")))));
    }

    @ParameterizedTest
    @MethodSource("products")
    void theSumInPlaceIsTheSumAndAnOverflowChangesNothing(ProductSemiring s) {
        InPlaceSum<Product> inPlace = s.inPlaceSum();
        if (s.hasObjects()) {
            assertThat(inPlace).isNull();
            return;
        }
        Random random = new Random(7);
        for (int n = 0; n < 2000; n++) {
            Product a = RandomPayloads.random(s, random);
            Product b = RandomPayloads.random(s, random);
            long[] longs = inPlace.toLongs(a);
            Product sum = s.plus(a, b);
            assertThat(inPlace.addTo(longs, b)).isEqualTo(!sum.equals(a));
            assertThat(inPlace.fromLongs(longs)).isEqualTo(sum);
        }
        if (s.arity() > 1 && s.components().get(1) == LongComponent.NATURAL) {
            long[] big = {1, Long.MAX_VALUE, 0, 0, 0, 0, 0};
            long[] target = java.util.Arrays.copyOf(big, s.arity());
            Product more = s.one();
            assertThatThrownBy(() -> inPlace.addTo(target, s.plus(more, more)))
                    .isInstanceOf(PayloadOverflowException.class);
            assertThat(target).containsExactly(java.util.Arrays.copyOf(big, s.arity()));
        }
    }

    /** MIN and MAX over every kind of chain. */
    static final List<ChainComponent> CHAINS = List.of(
            ChainComponent.min(Chain.of(Chain.Kind.STRING, "STRING")),
            ChainComponent.max(Chain.of(Chain.Kind.STRING, "STRING")),
            ChainComponent.min(Chain.of(Chain.Kind.DATE, "DATE")),
            ChainComponent.max(Chain.of(Chain.Kind.TIMESTAMP, "TIMESTAMP(3)")),
            ChainComponent.min(Chain.of(Chain.Kind.TIME, "TIME")),
            ChainComponent.min(Chain.decimal(12, 2, "DECIMAL(12, 2)")),
            ChainComponent.max(Chain.decimal(30, 2, "DECIMAL(30, 2)")),
            ChainComponent.max(Chain.of(Chain.Kind.BOOLEAN, "BOOLEAN")),
            ChainComponent.min(Chain.of(Chain.Kind.DOUBLE, "DOUBLE")),
            ChainComponent.max(Chain.of(Chain.Kind.INTEGER, "BIGINT")),
            ChainComponent.min(Chain.of(Chain.Kind.TIMESTAMP_NANOS, "TIMESTAMP(9)")));

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

    @Test
    void minOfStringsAndMaxOfDatesOverAJoin() {
        ProductSemiring s = ProductSemiring.of(List.of(
                ChainComponent.min(Chain.of(Chain.Kind.STRING, "STRING")),
                ChainComponent.max(Chain.of(Chain.Kind.DATE, "DATE"))));
        assertThat(s.name()).isEqualTo("product(natural,min over STRING,max over DATE)");
        assertThat(s.hasObjects()).isTrue();
        // A product row holds the name, an order row the date; each is the one in the other's component.
        Product widget = s.payload(new long[] {1, Chain.VALUE, Chain.TOP}, new Object[] {null, "widget", null});
        Product gadget = s.payload(new long[] {1, Chain.VALUE, Chain.TOP}, new Object[] {null, "gadget", null});
        Product may = s.parse("1;bottom;2024-05-01");
        Product june = s.parse("1;bottom;2024-06-01");
        Product joined = s.plus(s.plus(s.times(widget, may), s.times(gadget, may)), s.times(gadget, june));
        assertThat(s.format(joined)).isEqualTo("3;'gadget';2024-06-01");
        assertThat(joined.get(1)).isEqualTo(Chain.VALUE);
        assertThat(joined.object(1)).isEqualTo("gadget");
        // A row whose name is NULL contributes the zero there (⊤): the group keeps the others' MIN.
        Product nameless = s.parse("1;top;top");
        assertThat(s.isZero(s.times(widget, nameless))).isFalse();
        assertThat(s.format(s.plus(s.times(nameless, may), joined))).isEqualTo("4;'gadget';2024-06-01");
        assertThat(s.format(s.times(nameless, may))).isEqualTo("1;top;2024-05-01");
    }

    @Test
    void objectsMustFitTheirChains() {
        ProductSemiring s = ProductSemiring.of(List.of(ChainComponent.min(Chain.of(Chain.Kind.STRING, "STRING"))));
        assertThatThrownBy(() -> s.payload(1, 0))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("keeps objects: a payload needs them");
        assertThatThrownBy(() -> s.payload(new long[] {1, Chain.VALUE}, new Object[] {null, 42}))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a value of STRING");
        assertThatThrownBy(() -> s.parse("0;'a'"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("with count 0 must be the zero 0;top");
        assertThat(s.parse("2;'a;b'").object(1)).isEqualTo("a;b");
    }
}
