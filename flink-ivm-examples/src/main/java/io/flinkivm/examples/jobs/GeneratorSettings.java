package io.flinkivm.examples.jobs;

import java.io.Serializable;

/**
 * What an example's data generator makes.
 *
 * @param inserts number of inserts, at least 1
 * @param skew 0 for uniform keys, otherwise the Zipf exponent of the join keys (see {@link KeyDistribution})
 * @param seed the seed: the same settings give the same stream
 */
public record GeneratorSettings(long inserts, double skew, long seed) implements Serializable {
    public GeneratorSettings {
        if (inserts < 1) {
            throw new IllegalArgumentException("inserts must be >= 1, got " + inserts);
        }
        if (!(skew >= 0) || Double.isInfinite(skew)) {
            throw new IllegalArgumentException("skew must be a finite number >= 0, got " + skew);
        }
    }

    /** "uniform keys" or "Zipf keys (s = 1.2)". */
    public String describeSkew() {
        return skew == 0 ? "uniform keys" : "Zipf keys (s = " + skew + ")";
    }

    /** {@code n / divisor}, at least {@code min}: a key domain that grows with the stream. */
    public int domain(long divisor, int min) {
        return (int) Math.max(min, Math.min(Integer.MAX_VALUE, inserts / divisor));
    }
}
