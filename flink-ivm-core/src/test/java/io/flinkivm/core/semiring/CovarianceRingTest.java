package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CovarianceRingTest {
    private static final CovarianceRing RING = CovarianceRing.of(1);

    @Test
    void aDeleteCancelsItsLiftAndLeavesCountZeroPayloadsThatAreNotZero() {
        CovarianceTriple one = CovarianceTriple.lift(1);
        CovarianceTriple two = CovarianceTriple.lift(2);
        CovarianceTriple difference = RING.minus(one, two);
        assertThat(difference.count()).isZero();
        assertThat(RING.isZero(difference)).isFalse();
        assertThat(RING.format(difference)).isEqualTo("0;-1;-3");
        assertThat(RING.parse("0;-1;-3")).isEqualTo(difference);
        assertThat(RING.plus(difference, two)).isEqualTo(one);
        assertThat(RING.parse("-1;-2;-4")).isEqualTo(RING.negate(two));
    }

    @Test
    void theSemiringRejectsSignedTriplesAndNamesTheRing() {
        CovarianceSemiring semiring = CovarianceSemiring.of(1);
        CovarianceTriple signed = CovarianceTriple.lift(2).negate();
        assertThatThrownBy(() -> semiring.plus(signed, semiring.one()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("covariance-ring:1");
        assertThatThrownBy(() -> semiring.parse("-1;-2;-4"))
                .isInstanceOf(PayloadFormatException.class)
                .hasMessageContaining("not a natural number");
    }

    @Test
    void aRowGivesUpPartOfItsCount() {
        CovarianceTriple twice = RING.plus(CovarianceTriple.lift(2), CovarianceTriple.lift(2));
        assertThat(RING.canRemove(twice, CovarianceTriple.lift(2))).isTrue();
        assertThat(RING.canRemove(CovarianceTriple.lift(2), twice)).isFalse();
        assertThat(RING.canRemove(RING.zero(), CovarianceTriple.lift(2))).isFalse();
    }
}
