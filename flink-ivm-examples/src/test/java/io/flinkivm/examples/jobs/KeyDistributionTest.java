package io.flinkivm.examples.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import java.util.Random;
import org.apache.commons.math3.distribution.ZipfDistribution;
import org.apache.commons.math3.stat.inference.ChiSquareTest;
import org.junit.jupiter.api.Test;

class KeyDistributionTest {

    @Test
    void uniformSpreadsEvenly() {
        KeyDistribution keys = new KeyDistribution(10, 0);
        int[] counts = histogram(keys, 100_000);

        for (int c : counts) {
            assertThat(c).isBetween(9_000, 11_000);
        }
    }

    @Test
    void zipfFavoursLowRanks() {
        KeyDistribution keys = new KeyDistribution(100, 1.0);
        int[] counts = histogram(keys, 100_000);

        // P(rank 0) = 1 / H(100) ≈ 0.193, P(rank 1) = half of that.
        assertThat(counts[0]).isBetween(18_000, 20_600);
        assertThat(counts[1]).isBetween(8_800, 10_500);
        assertThat(counts[0]).isGreaterThan(counts[9] * 8);
    }

    /** The probabilities are Zipf's, as commons-math3 computes them (an independent implementation). */
    @Test
    void probabilitiesAreThoseOfCommonsMathsZipfDistribution() {
        for (double s : new double[] {0.5, 1.0, 1.1, 2.0}) {
            KeyDistribution keys = new KeyDistribution(100, s);
            ZipfDistribution oracle = new ZipfDistribution(null, 100, s);
            double total = 0;
            for (int k = 0; k < 100; k++) {
                assertThat(keys.probability(k))
                        .as("s = %s, rank %d", s, k)
                        .isCloseTo(oracle.probability(k + 1), offset(1e-12));
                total += keys.probability(k);
            }
            assertThat(total).isCloseTo(1.0, offset(1e-12));
        }
        assertThat(new KeyDistribution(8, 0).probability(3)).isEqualTo(1.0 / 8);
    }

    /** Samples follow the distribution: a chi-square test of 200,000 draws at the 0.1 % level. */
    @Test
    void samplesPassAChiSquareTest() {
        KeyDistribution keys = new KeyDistribution(50, 1.1);
        Random random = new Random(1);
        long[] observed = new long[50];
        for (int i = 0; i < 200_000; i++) {
            observed[keys.sample(random.nextDouble())]++;
        }
        double[] expected = new double[50];
        for (int k = 0; k < 50; k++) {
            expected[k] = keys.probability(k);
        }
        assertThat(new ChiSquareTest().chiSquareTest(expected, observed, 0.001))
                .as("rejected at 0.1 %")
                .isFalse();
    }

    @Test
    void sampleCoversTheWholeRange() {
        KeyDistribution keys = new KeyDistribution(5, 2.0);

        assertThat(keys.sample(0.0)).isZero();
        assertThat(keys.sample(Math.nextDown(1.0))).isEqualTo(4);
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> new KeyDistribution(0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("size must be >= 1");
        assertThatThrownBy(() -> new KeyDistribution(3, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("skew must be a finite number >= 0");
        assertThatThrownBy(() -> new KeyDistribution(3, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    private static int[] histogram(KeyDistribution keys, int n) {
        int[] counts = new int[keys.size()];
        for (int i = 0; i < n; i++) {
            counts[new Draws(3, i).next(keys)]++;
        }
        return counts;
    }
}
