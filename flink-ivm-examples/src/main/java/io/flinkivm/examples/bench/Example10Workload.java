package io.flinkivm.examples.bench;

import io.flinkivm.core.query.Tuple;
import java.util.Random;

/**
 * Ex. 10 of the paper, {@code Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)}: a
 * p-hierarchical, not q-hierarchical query. Each insert goes to one of the five relations, chosen
 * uniformly; its payload is uniform in {1,2,3}.
 *
 * <p>Domains: A, B and C have ⌈√n⌉ values, so joins on them fan out more as the stream grows (the
 * result grows about linearly in n, the full join about quadratically); D has 2 values and E, F, G,
 * H have 4 each, so R1..R3 and R5 seldom repeat a tuple while R4(C) repeats each value about √n/5
 * times. With {@link Distribution#ZIPF}, A and C (the free variables: the hub join variable and the
 * group key of R4 and R5) are Zipf-distributed with s = 1.1, the hottest value first; B and D..H
 * stay uniform. Skewing B too would make the result's natural-number payloads exceed 64 bits at
 * n = 10^6.
 */
final class Example10Workload implements Workload {
    static final String QUERY = "Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)";
    static final int D_VALUES = 2;
    static final int EFGH_VALUES = 4;
    static final int MAX_PAYLOAD = 3;

    private static final String[] RELATIONS = {"R1", "R2", "R3", "R4", "R5"};

    @Override
    public String name() {
        return "ex10";
    }

    @Override
    public String query() {
        return QUERY;
    }

    static int keyDomain(int n) {
        return Math.max(1, (int) Math.ceil(Math.sqrt(n)));
    }

    @Override
    public String describe(int n) {
        return "inserts spread uniformly over R1..R5, payloads uniform in 1.." + MAX_PAYLOAD + "; |A| = |B| = |C| = ⌈√n⌉"
                + " (" + keyDomain(n) + " at n = " + n + "), |D| = " + D_VALUES + ", |E| = |F| = |G| = |H| = "
                + EFGH_VALUES + "; zipf: A and C Zipf(s = " + ZipfSampler.DEFAULT_EXPONENT + "), the rest uniform";
    }

    @Override
    public InsertStream generate(int n, Distribution distribution, long seed) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        Random random = new Random(seed * 1_000_003L + n * 31L + distribution.ordinal());
        int keys = keyDomain(n);
        Long[] pool = new Long[Math.max(keys, EFGH_VALUES)];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = (long) i;
        }
        ZipfSampler zipf = distribution == Distribution.ZIPF ? new ZipfSampler(keys, ZipfSampler.DEFAULT_EXPONENT) : null;
        Long[] payloads = new Long[MAX_PAYLOAD + 1];
        for (int i = 0; i < payloads.length; i++) {
            payloads[i] = (long) i;
        }
        String[] relation = new String[n];
        Tuple[] tuples = new Tuple[n];
        Long[] payload = new Long[n];
        for (int i = 0; i < n; i++) {
            int r = random.nextInt(RELATIONS.length);
            Object[] v = switch (r) {
                case 0, 1 -> new Object[] {pool[skewed(random, zipf, keys)], pool[random.nextInt(keys)],
                        pool[random.nextInt(D_VALUES)], pool[random.nextInt(EFGH_VALUES)]};
                case 2 -> new Object[] {pool[skewed(random, zipf, keys)], pool[random.nextInt(keys)],
                        pool[random.nextInt(EFGH_VALUES)]};
                case 3 -> new Object[] {pool[skewed(random, zipf, keys)]};
                default -> new Object[] {pool[skewed(random, zipf, keys)], pool[skewed(random, zipf, keys)],
                        pool[random.nextInt(EFGH_VALUES)]};
            };
            relation[i] = RELATIONS[r];
            tuples[i] = Tuple.wrap(v);
            payload[i] = payloads[1 + random.nextInt(MAX_PAYLOAD)];
        }
        return new InsertStream(relation, tuples, payload, distribution, seed);
    }

    private static int skewed(Random random, ZipfSampler zipf, int keys) {
        return zipf == null ? random.nextInt(keys) : zipf.sample(random);
    }
}
