package io.flinkivm.examples.bench;

import io.flinkivm.core.query.Tuple;
import java.util.Random;

/**
 * A query that is not p-hierarchical, the path {@code Q(A,C) :- R(A,B), S(B,C)}: every plan runs the
 * fallback (first-order delta joins), and an insert costs as many result updates as its B value has
 * partners; Thm. 2 says no algorithm does better than about √N per insert. The honest cost of the
 * fallback. Inserts go to R or S uniformly; payloads uniform in {1,2,3}.
 *
 * <p>Domains: A, B and C have ⌈√n⌉ values each, so a B value has about √n/2 partners on each side at
 * the end. With {@link Distribution#ZIPF}, B (the join variable) is Zipf-distributed, A and C uniform.
 */
final class PathWorkload implements Workload {
    static final String QUERY = "Q(A,C) :- R(A,B), S(B,C)";
    static final int MAX_PAYLOAD = 3;

    @Override
    public String name() {
        return "path";
    }

    @Override
    public String query() {
        return QUERY;
    }

    @Override
    public String describe(int n) {
        return "not p-hierarchical; inserts spread uniformly over R and S, payloads uniform in 1.." + MAX_PAYLOAD
                + "; |A| = |B| = |C| = ⌈√n⌉ (" + Example10Workload.keyDomain(n) + " at n = " + n + "); zipf: B Zipf(s = "
                + ZipfSampler.DEFAULT_EXPONENT + "), A and C uniform";
    }

    @Override
    public InsertStream generate(int n, Distribution distribution, long seed) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        Random random = new Random(seed * 1_000_037L + n * 41L + distribution.ordinal());
        int keys = Example10Workload.keyDomain(n);
        Long[] pool = Values.pool(Math.max(keys, MAX_PAYLOAD + 1));
        ZipfSampler zipf = distribution == Distribution.ZIPF ? new ZipfSampler(keys, ZipfSampler.DEFAULT_EXPONENT) : null;
        String[] relation = new String[n];
        Tuple[] tuples = new Tuple[n];
        Long[] payload = new Long[n];
        for (int i = 0; i < n; i++) {
            boolean r = random.nextBoolean();
            Long b = pool[zipf == null ? random.nextInt(keys) : zipf.sample(random)];
            Long other = pool[random.nextInt(keys)];
            tuples[i] = r ? Tuple.wrap(new Object[] {other, b}) : Tuple.wrap(new Object[] {b, other});
            relation[i] = r ? "R" : "S";
            payload[i] = pool[1 + random.nextInt(MAX_PAYLOAD)];
        }
        return new InsertStream(relation, tuples, payload, distribution, seed);
    }
}
