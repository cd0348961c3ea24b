package io.flinkivm.bench;

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

    @Override
    public String describe(int n) {
        return "inserts spread uniformly over R1..R5, payloads uniform in 1.." + MAX_PAYLOAD
                + "; |A| = |B| = |C| = ⌈√n⌉"
                + " (" + GeneratedStream.keyDomain(n) + " at n = " + n + "), |D| = " + D_VALUES
                + ", |E| = |F| = |G| = |H| = " + EFGH_VALUES + "; zipf: A and C Zipf(s = " + Distribution.ZIPF_EXPONENT
                + "), the rest uniform";
    }

    @Override
    public InsertStream generate(int n, Distribution distribution, long seed) {
        GeneratedStream g =
                new GeneratedStream(n, distribution, seed, 1_000_003L, 31L, Math.max(EFGH_VALUES, MAX_PAYLOAD + 1));
        for (int i = 0; i < n; i++) {
            int r = g.random.nextInt(RELATIONS.length);
            Object[] v = switch (r) {
                case 0, 1 -> new Object[] {g.skewedKey(), g.uniformKey(), g.value(D_VALUES), g.value(EFGH_VALUES)};
                case 2 -> new Object[] {g.skewedKey(), g.uniformKey(), g.value(EFGH_VALUES)};
                case 3 -> new Object[] {g.skewedKey()};
                default -> new Object[] {g.skewedKey(), g.skewedKey(), g.value(EFGH_VALUES)};
            };
            g.add(RELATIONS[r], v, g.payload(MAX_PAYLOAD));
        }
        return g.build();
    }
}
