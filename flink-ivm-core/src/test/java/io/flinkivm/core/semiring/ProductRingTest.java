package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ProductRingTest {

    private static final ProductRing SUM_MIN = ProductRing.of(List.of(LongComponent.INTEGER, LongComponent.MIN));

    static Stream<ProductRing> rings() {
        return Stream.of(
                ProductRing.of(List.of()),
                SUM_MIN,
                ProductRing.of(List.of(
                        LongComponent.NATURAL,
                        LongComponent.INTEGER,
                        LongComponent.MIN,
                        LongComponent.MAX,
                        LongComponent.MIN_DOUBLE,
                        LongComponent.MAX_DOUBLE)),
                ProductRing.of(CHAINS),
                ProductRing.of(List.of(
                        LongComponent.INTEGER,
                        ChainComponent.min(Chain.of(Chain.Kind.STRING, "STRING")),
                        LongComponent.MIN,
                        ChainComponent.max(Chain.of(Chain.Kind.DATE, "DATE")))));
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
    @MethodSource("rings")
    void semiringAndRingLawsHold(ProductRing s) {
        SemiringLawsTest.checkLaws(s, new Random(17 + s.arity()));
        SemiringLawsTest.checkRingLaws(s, new Random(19 + s.arity()));
        SemiringLawsTest.checkSerialization(s, new Random(23));
    }

    @Test
    void namesItsComponentsAfterTheIntegerCount() {
        assertThat(SUM_MIN.name()).isEqualTo("product(integer,integer,min-multiset)");
        assertThat(SUM_MIN.format(SUM_MIN.zero())).isEqualTo("0;0;{}");
        assertThat(SUM_MIN.format(SUM_MIN.one())).isEqualTo("1;1;{0}");
        assertThat(ProductRing.of(List.of(LongComponent.NATURAL)).name()).isEqualTo("product(integer,integer)");
    }

    @Test
    void theMinFallsBackToTheNextValueWhenItsRowIsDeleted() {
        Product three = SUM_MIN.payload(1, 10, 3);
        Product seven = SUM_MIN.payload(1, 20, 7);
        Product group = SUM_MIN.plus(SUM_MIN.plus(three, seven), three);
        assertThat(group.get(2)).isEqualTo(3);
        assertThat(SUM_MIN.format(group)).isEqualTo("3;40;{3x2 7}");
        group = SUM_MIN.minus(group, three);
        assertThat(group.get(2)).isEqualTo(3);
        group = SUM_MIN.minus(group, three);
        assertThat(group.get(2)).isEqualTo(7);
        assertThat(group).isEqualTo(seven);
        group = SUM_MIN.minus(group, seven);
        assertThat(SUM_MIN.isZero(group)).isTrue();
        assertThat(group.get(2)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aJoinAddsTheValuesOfTheMinAsTheTropicalProductDoes() {
        // MIN(x + y) over a join: the values add, the multiplicities multiply.
        Product left = SUM_MIN.parse("2;0;{1 4}");
        Product right = SUM_MIN.parse("1;0;10");
        assertThat(SUM_MIN.format(SUM_MIN.times(left, right))).isEqualTo("2;0;{11 14}");
        assertThat(SUM_MIN.times(left, right).get(2)).isEqualTo(11);
    }

    @Test
    void doubleValuesOrderAsDoubles() {
        ProductRing max = ProductRing.of(List.of(LongComponent.MAX_DOUBLE));
        Product p = max.plus(max.parse("1;-2.5"), max.parse("1;-0.25"));
        assertThat(LongComponent.value(p.get(1))).isEqualTo(-0.25);
        assertThat(max.format(p)).isEqualTo("2;{-2.5 -0.25}");
        assertThat(LongComponent.value(max.minus(p, max.parse("1;-0.25")).get(1)))
                .isEqualTo(-2.5);
    }

    @Test
    void aRowGivesUpPartOfItsCountNeverMore() {
        Product two = SUM_MIN.payload(2, 10, 3);
        assertThat(SUM_MIN.canRemove(two, SUM_MIN.payload(1, 5, 3))).isTrue();
        assertThat(SUM_MIN.canRemove(two, two)).isTrue();
        assertThat(SUM_MIN.canRemove(two, SUM_MIN.payload(3, 15, 3))).isFalse();
        assertThat(SUM_MIN.canRemove(SUM_MIN.zero(), SUM_MIN.payload(1, 5, 3))).isFalse();
    }

    @Test
    void malformedPayloadsAreRejected() {
        assertThatThrownBy(() -> SUM_MIN.parse("1;3"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("expected 3 values");
        assertThatThrownBy(() -> SUM_MIN.parse("1;3;{4x0}"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("non-zero integer multiplicity");
        assertThatThrownBy(() -> SUM_MIN.parse("1;3;{4"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("ends with '}'");
        assertThat(SUM_MIN.parse("-1;-3;{4x-1}")).isEqualTo(SUM_MIN.negate(SUM_MIN.payload(1, 3, 4)));
    }

    @Test
    void theRingOfAProductSemiringHasItsComponents() {
        ProductSemiring semiring = ProductSemiring.of(List.of(LongComponent.INTEGER, LongComponent.MIN));
        assertThat(Semirings.ringFor(semiring)).isEqualTo(SUM_MIN);
        assertThat(Semirings.ringFor(NaturalSemiring.INSTANCE)).isSameAs(IntegerRing.INSTANCE);
        assertThat(Semirings.ringFor(CovarianceSemiring.of(2))).isEqualTo(CovarianceRing.of(2));
        assertThat(Semirings.ringFor(IntegerRing.INSTANCE)).isSameAs(IntegerRing.INSTANCE);
        assertThat(Semirings.ringFor(BooleanSemiring.INSTANCE)).isNull();
    }

    @Test
    void theMinOfStringsFallsBackToTheNextWhenItsRowIsDeleted() {
        ProductSemiring semiring = ProductSemiring.of(List.of(
                ChainComponent.min(Chain.of(Chain.Kind.STRING, "STRING")),
                ChainComponent.max(Chain.of(Chain.Kind.TIMESTAMP, "TIMESTAMP(3)"))));
        ProductRing ring = (ProductRing) Semirings.ringFor(semiring);
        assertThat(ring.name()).isEqualTo("product(integer,min-multiset over STRING,max-multiset over TIMESTAMP(3))");
        Product apple = ring.lift(semiring.parse("1;'apple';top"));
        Product pear = ring.lift(semiring.parse("1;'pear';top"));
        Product early = ring.lift(semiring.parse("1;bottom;2024-05-01T10:00"));
        Product late = ring.lift(semiring.parse("1;bottom;2024-05-02T10:00"));
        Product group = ring.plus(ring.plus(ring.times(apple, early), ring.times(pear, early)), ring.times(pear, late));
        assertThat(ring.format(group)).isEqualTo("3;{'apple' 'pear'x2};{2024-05-01T10:00x2 2024-05-02T10:00}");
        assertThat(group.object(1)).isEqualTo("apple");
        assertThat(group.get(2)).isEqualTo(Chain.micros(java.time.LocalDateTime.of(2024, 5, 2, 10, 0)));
        group = ring.minus(group, ring.times(apple, early));
        assertThat(group.object(1)).isEqualTo("pear");
        group = ring.minus(group, ring.times(pear, late));
        assertThat(group.object(1)).isEqualTo("pear");
        assertThat(group.get(2)).isEqualTo(Chain.micros(java.time.LocalDateTime.of(2024, 5, 1, 10, 0)));
        group = ring.minus(group, ring.times(pear, early));
        assertThat(ring.isZero(group)).isTrue();
        assertThat(group.get(1)).isEqualTo(Chain.TOP);
        assertThat(group.object(1)).isNull();
    }

    @Test
    void chainMultisetsParseQuotedStringsWithMultiplicities() {
        ProductRing ring = ProductRing.of(List.of(ChainComponent.max(Chain.of(Chain.Kind.STRING, "STRING"))));
        Product p = ring.parse("2;{'x y'x2 'it''s' topx-1}");
        assertThat(ring.format(p)).isEqualTo("2;{'it''s' 'x y'x2 topx-1}");
        assertThat(p.get(1)).isEqualTo(Chain.TOP);
        assertThat(ring.parse("1;'solo'").objectMultiset(1).multiplicity(Chain.VALUE, "solo"))
                .isEqualTo(1);
        assertThat(ring.isZero(ring.parse("0;bottom"))).isTrue();
        assertThatThrownBy(() -> ring.parse("1;{'open}"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("a string in a multiset is not closed");
        assertThatThrownBy(() -> ring.parse("1;{bottom}"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("bottom is no value of a multiset");
        assertThatThrownBy(() -> ring.of(new long[] {1, 0}, new Object[] {null, ValueMultiset.empty()}))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("needs a multiset of STRING");
    }
}
