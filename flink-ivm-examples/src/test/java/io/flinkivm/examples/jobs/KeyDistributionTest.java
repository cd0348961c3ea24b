package io.flinkivm.examples.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void sampleCoversTheWholeRange() {
        KeyDistribution keys = new KeyDistribution(5, 2.0);

        assertThat(keys.sample(0.0)).isZero();
        assertThat(keys.sample(Math.nextDown(1.0))).isEqualTo(4);
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> new KeyDistribution(0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("size must be >= 1");
        assertThatThrownBy(() -> new KeyDistribution(3, -1)).isInstanceOf(IllegalArgumentException.class)
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
