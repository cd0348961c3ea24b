package io.flinkivm.core.partition;

import java.util.List;

/**
 * Chooses HyperCube shares (Afrati and Ullman's shares; Beame, Koutris and Suciu's HyperCube) for a
 * join over relations with the given schemas on at most {@code parallelism} cells. With no
 * statistics every relation is assumed to be of the same size N, so a cell receives
 * N · Σ_R 1 / ∏_{v ∈ R} s_v tuples; the shares minimise that, over all share vectors with
 * ∏ s_v ≤ parallelism (ties: more cells, then larger shares for earlier variables). A variable that
 * every schema has gets all cells (each tuple then goes to exactly one cell); a relation without
 * variables (a nullary root view) goes to every cell whatever the shares.
 */
public final class HyperCube {
    private HyperCube() {}

    /**
     * The shares over {@code variables} for relations with {@code schemas} on at most
     * {@code parallelism} cells.
     *
     * @throws IllegalArgumentException if {@code parallelism < 1}
     */
    public static Shares shares(List<String> variables, List<List<String>> schemas, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1, got " + parallelism);
        }
        int k = variables.size();
        boolean[][] has = new boolean[schemas.size()][k];
        for (int r = 0; r < schemas.size(); r++) {
            for (int v = 0; v < k; v++) {
                has[r][v] = schemas.get(r).contains(variables.get(v));
            }
        }
        Search s = new Search(has, k, parallelism);
        s.search(0, 1, new int[k]);
        return new Shares(variables, s.best);
    }

    /** Exhaustive search over share vectors (parallelism and variable counts are small). */
    private static final class Search {
        private final boolean[][] has;
        private final int k;
        private final int parallelism;
        private int[] best;
        private double bestLoad = Double.POSITIVE_INFINITY;
        private int bestCells;

        Search(boolean[][] has, int k, int parallelism) {
            this.has = has;
            this.k = k;
            this.parallelism = parallelism;
        }

        void search(int v, int cells, int[] shares) {
            if (v == k) {
                consider(shares, cells);
                return;
            }
            for (int s = parallelism / cells; s >= 1; s--) {
                shares[v] = s;
                search(v + 1, cells * s, shares);
            }
        }

        private void consider(int[] shares, int cells) {
            double load = 0;
            for (boolean[] relation : has) {
                int own = 1;
                for (int v = 0; v < k; v++) {
                    if (relation[v]) {
                        own *= shares[v];
                    }
                }
                load += 1.0 / own;
            }
            // Candidates come in decreasing lexicographic order, so on a tie the first one seen keeps
            // the larger shares on earlier variables.
            if (load < bestLoad - 1e-12 || (Math.abs(load - bestLoad) <= 1e-12 && cells > bestCells)) {
                bestLoad = load;
                bestCells = cells;
                best = shares.clone();
            }
        }
    }
}
