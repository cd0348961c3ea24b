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
                        LongComponent.MAX_DOUBLE)));
    }

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
}
