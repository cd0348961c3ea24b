package io.flinkivm.bench;

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
                + "; |A| = |B| = |C| = ⌈√n⌉ (" + GeneratedStream.keyDomain(n) + " at n = " + n + "); zipf: B Zipf(s = "
                + Distribution.ZIPF_EXPONENT + "), A and C uniform";
    }

    @Override
    public InsertStream generate(int n, Distribution distribution, long seed) {
        GeneratedStream g = new GeneratedStream(n, distribution, seed, 1_000_037L, 41L, MAX_PAYLOAD + 1);
        for (int i = 0; i < n; i++) {
            boolean r = g.random.nextBoolean();
            Long b = g.skewedKey();
            Long other = g.uniformKey();
            g.add(r ? "R" : "S", r ? new Object[] {other, b} : new Object[] {b, other}, g.payload(MAX_PAYLOAD));
        }
        return g.build();
    }
}
