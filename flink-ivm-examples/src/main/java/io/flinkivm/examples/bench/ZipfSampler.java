package io.flinkivm.examples.bench;

import java.util.Random;

/**
 * Draws ranks 0..m-1 with probability ∝ 1/(rank+1)^s from a caller's seeded {@link Random}, by binary
 * search in the cumulative distribution (built once, m doubles). Rank 0 is the most frequent.
 */
final class ZipfSampler {
    static final double DEFAULT_EXPONENT = 1.1;

    private final double[] cdf;

    ZipfSampler(int m, double s) {
        if (m < 1) {
            throw new IllegalArgumentException("domain size must be >= 1, got " + m);
        }
        if (!(s > 0)) {
            throw new IllegalArgumentException("exponent must be > 0, got " + s);
        }
        cdf = new double[m];
        double total = 0;
        for (int i = 0; i < m; i++) {
            total += 1.0 / Math.pow(i + 1, s);
            cdf[i] = total;
        }
        for (int i = 0; i < m; i++) {
            cdf[i] /= total;
        }
        cdf[m - 1] = 1.0;
    }

    int domainSize() {
        return cdf.length;
    }

    /** The probability of rank {@code r}. */
    double probability(int r) {
        return r == 0 ? cdf[0] : cdf[r] - cdf[r - 1];
    }

    int sample(Random random) {
        double u = random.nextDouble();
        int lo = 0;
        int hi = cdf.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cdf[mid] > u) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}
