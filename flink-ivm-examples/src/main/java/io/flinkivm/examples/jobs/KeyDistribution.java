package io.flinkivm.examples.jobs;

import java.io.Serializable;

/**
 * Which of {@code size} keys a generated value takes: uniform (skew 0) or Zipf with exponent
 * {@code skew}, where key rank k (from 0) has probability proportional to 1/(k+1)^skew, so rank 0
 * is the hottest. Sampling inverts the cumulative distribution (a binary search over {@code size}
 * doubles, built on first use) at a uniform draw, so a stream generator that derives the draw from its
 * seed and the record's index produces any record on its own. The one Zipf sampler of the module: the
 * example jobs, the soak and the bench's streams use it. (commons-math3's {@code ZipfDistribution}
 * samples from its own generator, and its inverse CDF costs O(size) per probe.)
 */
public final class KeyDistribution implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int size;
    private final double skew;
    private transient double[] cdf;

    /**
     * @param size number of keys, at least 1
     * @param skew 0 for uniform, otherwise the Zipf exponent (> 0)
     */
    public KeyDistribution(int size, double skew) {
        if (size < 1) {
            throw new IllegalArgumentException("size must be >= 1, got " + size);
        }
        if (!(skew >= 0) || Double.isInfinite(skew)) {
            throw new IllegalArgumentException("skew must be a finite number >= 0, got " + skew);
        }
        this.size = size;
        this.skew = skew;
    }

    public int size() {
        return size;
    }

    public double skew() {
        return skew;
    }

    /** The probability of key rank {@code k}, in [0, size). */
    public double probability(int k) {
        if (k < 0 || k >= size) {
            throw new IllegalArgumentException("rank must be in [0, " + size + "), got " + k);
        }
        if (skew == 0) {
            return 1.0 / size;
        }
        double[] c = cdf();
        return k == 0 ? c[0] : c[k] - c[k - 1];
    }

    /** The key rank, in [0, size), for a uniform draw {@code u} in [0, 1). */
    public int sample(double u) {
        if (skew == 0) {
            return Math.min(size - 1, (int) (u * size));
        }
        double[] c = cdf();
        int lo = 0;
        int hi = size - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (c[mid] > u) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    private double[] cdf() {
        double[] c = cdf;
        if (c == null) {
            c = new double[size];
            double sum = 0;
            for (int k = 0; k < size; k++) {
                sum += Math.pow(k + 1, -skew);
                c[k] = sum;
            }
            for (int k = 0; k < size; k++) {
                c[k] /= sum;
            }
            c[size - 1] = 1.0;
            cdf = c;
        }
        return c;
    }
}
