package io.flinkivm.bench;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.examples.jobs.KeyDistribution;
import java.util.Random;

/**
 * The scaffolding the generated workloads share: a {@link Random} seeded from the workload's
 * constants, the size and the distribution; a pool of boxed values {@code 0..} (one {@link Long} per
 * distinct value in the whole stream); the draw of a skewable key (uniform, or Zipf with
 * {@link Distribution#ZIPF_EXPONENT} over rank 0 = the hottest); and the arrays of an
 * {@link InsertStream}, filled by {@link #add}. Each draw takes the same numbers from the random as
 * the workload's own loop did, so the streams stay the same for the same arguments.
 */
final class GeneratedStream {
    /** The random that drives the workload's choices; draw from it only through this object or in a fixed order. */
    final Random random;

    private final int keys;
    private final Long[] pool;
    private final KeyDistribution zipf;
    private final String[] relations;
    private final Tuple[] tuples;
    private final Long[] payloads;
    private final Distribution distribution;
    private final long seed;
    private int size;

    /**
     * A stream of {@code n} inserts with {@link #keyDomain(int) keyDomain(n)} keys, drawn from
     * {@code new Random(seed * seedFactor + n * sizeFactor + distribution.ordinal())}.
     *
     * @param minPoolSize the pool holds {@code 0 .. max(keys, minPoolSize) - 1}: every value and payload drawn
     * @throws IllegalArgumentException if {@code n} is negative
     */
    GeneratedStream(int n, Distribution distribution, long seed, long seedFactor, long sizeFactor, int minPoolSize) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        this.random = new Random(seed * seedFactor + n * sizeFactor + distribution.ordinal());
        this.keys = keyDomain(n);
        this.pool = new Long[Math.max(keys, minPoolSize)];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = (long) i;
        }
        this.zipf = distribution == Distribution.ZIPF ? new KeyDistribution(keys, Distribution.ZIPF_EXPONENT) : null;
        this.relations = new String[n];
        this.tuples = new Tuple[n];
        this.payloads = new Long[n];
        this.distribution = distribution;
        this.seed = seed;
    }

    /** The key domain of a stream of {@code n} inserts: ⌈√n⌉ values, at least one. */
    static int keyDomain(int n) {
        return Math.max(1, (int) Math.ceil(Math.sqrt(n)));
    }

    /** Number of inserts the stream holds when built. */
    int capacity() {
        return tuples.length;
    }

    /** A skewable key: uniform over the key domain, or Zipf-distributed for {@link Distribution#ZIPF}. */
    Long skewedKey() {
        return pool[zipf == null ? random.nextInt(keys) : zipf.sample(random.nextDouble())];
    }

    /** A key uniform over the key domain, whatever the distribution. */
    Long uniformKey() {
        return pool[random.nextInt(keys)];
    }

    /** A value uniform in {@code 0 .. bound-1}. */
    Long value(int bound) {
        return pool[random.nextInt(bound)];
    }

    /** A payload uniform in {@code 1 .. max}. */
    Long payload(int max) {
        return pool[1 + random.nextInt(max)];
    }

    /** Appends the next insert. */
    void add(String relation, Object[] values, Long payload) {
        relations[size] = relation;
        tuples[size] = Tuple.wrap(values);
        payloads[size] = payload;
        size++;
    }

    /** The stream; every insert must have been added. */
    InsertStream build() {
        if (size != tuples.length) {
            throw new IllegalStateException("added " + size + " of " + tuples.length + " inserts");
        }
        return new InsertStream(relations, tuples, payloads, distribution, seed);
    }
}
