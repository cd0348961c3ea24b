package io.flinkivm.examples.jobs;

/**
 * The pseudo-random draws of one generated insert: a SplitMix64 sequence that depends only on the
 * seed and the insert's index, so that insert i is the same wherever and however often it is made.
 */
public final class Draws {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private long state;

    public Draws(long seed, long index) {
        this.state = mix(seed * GOLDEN + mix(index + 0x632BE59BD9B4E019L));
    }

    public long nextLong() {
        state += GOLDEN;
        return mix(state);
    }

    /** Uniform in [0, 1). */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }

    /** Uniform in [0, bound). */
    public int nextInt(int bound) {
        return (int) ((nextLong() >>> 1) % bound);
    }

    /** A key rank from {@code keys}. */
    public int next(KeyDistribution keys) {
        return keys.sample(nextDouble());
    }

    /** A value such as {@code a17}: the prefix and a key's rank from 1 (a1 is the hottest under skew). */
    public String key(String prefix, KeyDistribution keys) {
        return prefix + (next(keys) + 1);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
