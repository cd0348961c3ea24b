package io.flinkivm.core.semiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CovarianceTripleTest {

    @Test
    void liftIsOneFeaturesAndOuterProduct() {
        CovarianceTriple t = CovarianceTriple.lift(1, 2);
        assertThat(t.count()).isEqualTo(1);
        assertThat(t.sums()).containsExactly(1, 2);
        assertThat(t.products()).containsExactly(1, 2, 2, 4);
        assertThat(t.product(1, 0)).isEqualTo(2);
        assertThat(t.toString()).isEqualTo("1;1 2;1 2 2 4");
    }

    @Test
    void productComputedByHand() {
        CovarianceTriple a = CovarianceTriple.of(2, new double[] {4, 1}, new double[] {10, -1, -1, 5});
        CovarianceTriple b = CovarianceTriple.of(3, new double[] {1, 0}, new double[] {1, 0, 0, 0});
        // c = 2·3; s = 3·(4,1) + 2·(1,0); Q = 3·Q1 + 2·Q2 + s1 s2ᵀ + s2 s1ᵀ
        //   = [[30,-3],[-3,15]] + [[2,0],[0,0]] + [[4,0],[1,0]] + [[4,1],[0,0]]
        CovarianceTriple expected = CovarianceTriple.of(6, new double[] {14, 3}, new double[] {40, -2, -2, 15});
        assertThat(a.times(b)).isEqualTo(expected);
        assertThat(b.times(a)).isEqualTo(expected);
        assertThat(expected.toString()).isEqualTo("6;14 3;40 -2 -2 15");
    }

    @Test
    void sumIsComponentwise() {
        CovarianceTriple sum = CovarianceTriple.lift(1, 2).plus(CovarianceTriple.lift(3, -1));
        assertThat(sum).isEqualTo(CovarianceTriple.of(2, new double[] {4, 1}, new double[] {10, -1, -1, 5}));
    }

    @Test
    void productOfLiftsOfDisjointFeaturesIsTheLiftOfTheJoinedTuple() {
        // A join of R(x1) and S(x2) puts the features of both sides into one tuple.
        assertThat(CovarianceTriple.lift(3, 0).times(CovarianceTriple.lift(0, 5)))
                .isEqualTo(CovarianceTriple.lift(3, 5));
    }

    @Test
    void negativeZeroIsNormalised() {
        CovarianceTriple a = CovarianceTriple.of(1, new double[] {-0.0}, new double[] {0.0});
        CovarianceTriple b = CovarianceTriple.of(1, new double[] {0.0}, new double[] {-0.0});
        assertThat(a).isEqualTo(b);
        assertThat(a.hashCode()).isEqualTo(b.hashCode());
        assertThat(CovarianceTriple.zero(1).times(CovarianceTriple.lift(-2))).isEqualTo(CovarianceTriple.zero(1));
        assertThat(CovarianceTriple.one(1).times(CovarianceTriple.lift(-0.0)).toString())
                .isEqualTo("1;0;0");
    }

    @Test
    void defensiveCopies() {
        double[] sums = {1, 2};
        double[] products = {1, 2, 2, 4};
        CovarianceTriple t = CovarianceTriple.of(1, sums, products);
        sums[0] = 99;
        t.products()[0] = 99;
        assertThat(t).isEqualTo(CovarianceTriple.lift(1, 2));
    }

    @Test
    void invariantsAreChecked() {
        assertThatThrownBy(() -> CovarianceTriple.of(0, new double[] {1}, new double[] {0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("count 0 must be all zeros");
        assertThatThrownBy(() -> CovarianceTriple.of(-1, new double[] {0}, new double[] {0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("natural number");
        assertThatThrownBy(() -> CovarianceTriple.of(1, new double[] {1, 2}, new double[] {1, 2, 3}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs 4 products (2×2), got 3");
        assertThatThrownBy(() -> CovarianceTriple.lift(Double.NaN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not finite");
        assertThatThrownBy(() -> CovarianceTriple.lift())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one feature");
    }

    @Test
    void differentDimensionsDoNotMix() {
        assertThatThrownBy(() -> CovarianceTriple.lift(1, 2).times(CovarianceTriple.lift(1, 2, 3)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("different numbers of features: 2 and 3");
        assertThatThrownBy(() -> CovarianceTriple.lift(1).plus(CovarianceTriple.lift(1, 2)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void overflowThrows() {
        CovarianceTriple big = CovarianceTriple.lift(1e154);
        assertThatThrownBy(() -> big.times(big))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("covariance product exceeds the double range");
        assertThatThrownBy(() -> CovarianceTriple.lift(1e200))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("exceeds the double range");
    }
}
