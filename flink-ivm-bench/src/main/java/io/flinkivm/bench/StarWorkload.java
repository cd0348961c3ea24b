package io.flinkivm.bench;

/**
 * A q-hierarchical query, {@code Q(A,B) :- R(A,B,C), S(A,B,C), T(A,D)}: a join view at C keyed by
 * (A,B,C) under the root view V[A,B], and V[A] over T. For such queries first-order IVM is already
 * O(1) per insert (the ablation should be flat too); flink-ivm still saves the re-join of the root views.
 * Each insert goes to R, S or T, chosen uniformly; payloads uniform in {1,2,3}.
 *
 * <p>Domains: A has ⌈√n⌉ values, B {@value #B_VALUES}, C and D {@value #CD_VALUES}, so every (A,B,C)
 * repeats about n/(3·32·√n) times and the result has about 8√n tuples. With {@link Distribution#ZIPF},
 * A (the hub of all three atoms) is Zipf-distributed, the rest uniform.
 */
final class StarWorkload implements Workload {
    static final String QUERY = "Q(A,B) :- R(A,B,C), S(A,B,C), T(A,D)";
    static final int B_VALUES = 8;
    static final int CD_VALUES = 4;
    static final int MAX_PAYLOAD = 3;

    private static final String[] RELATIONS = {"R", "S", "T"};

    @Override
    public String name() {
        return "star";
    }

    @Override
    public String query() {
        return QUERY;
    }

    @Override
    public String describe(int n) {
        return "q-hierarchical; inserts spread uniformly over R, S, T, payloads uniform in 1.." + MAX_PAYLOAD
                + "; |A| = ⌈√n⌉ (" + GeneratedStream.keyDomain(n) + " at n = " + n + "), |B| = " + B_VALUES
                + ", |C| = |D| = " + CD_VALUES + "; zipf: A Zipf(s = " + Distribution.ZIPF_EXPONENT
                + "), the rest uniform";
    }

    @Override
    public InsertStream generate(int n, Distribution distribution, long seed) {
        GeneratedStream g = new GeneratedStream(n, distribution, seed, 1_000_033L, 37L, MAX_PAYLOAD + 1);
        for (int i = 0; i < n; i++) {
            int r = g.random.nextInt(RELATIONS.length);
            Long a = g.skewedKey();
            Object[] v = r < 2
                    ? new Object[] {a, g.value(B_VALUES), g.value(CD_VALUES)}
                    : new Object[] {a, g.value(CD_VALUES)};
            g.add(RELATIONS[r], v, g.payload(MAX_PAYLOAD));
        }
        return g.build();
    }
}
