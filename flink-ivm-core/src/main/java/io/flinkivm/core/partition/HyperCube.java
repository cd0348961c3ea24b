package io.flinkivm.core.partition;

import java.util.Arrays;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * Chooses HyperCube shares (Afrati and Ullman's shares; Beame, Koutris and Suciu's HyperCube) for a
 * join over relations with the given schemas on at most {@code parallelism} cells. A tuple of
 * relation R goes to ∏_{v ∉ R} s_v of the ∏_v s_v cells, so with R receiving w_R updates per unit
 * of time a cell receives Σ_R w_R / ∏_{v ∈ R} s_v of them; the shares minimise that expected load
 * per cell over all share vectors with ∏ s_v ≤ parallelism (ties: more cells, then larger shares
 * for earlier variables). Without weights every relation counts as equally fast (w_R = 1). A
 * variable that every schema has gets all cells (each tuple then goes to exactly one cell); a
 * relation without variables (a nullary root view) goes to every cell whatever the shares.
 */
@Internal
public final class HyperCube {
    private HyperCube() {}

    /**
     * The shares over {@code variables} for relations with {@code schemas} on at most
     * {@code parallelism} cells.
     *
     * @throws IllegalArgumentException if {@code parallelism < 1}
     */
    public static Shares shares(List<String> variables, List<List<String>> schemas, int parallelism) {
        return shares(variables, schemas, null, parallelism);
    }

    /**
     * The shares over {@code variables} for relations with {@code schemas} receiving {@code weights}
     * updates per unit of time (one per schema, positive; null: all equal) on at most
     * {@code parallelism} cells.
     *
     * @throws IllegalArgumentException if {@code parallelism < 1}, or the weights do not fit the schemas
     */
    public static Shares shares(List<String> variables, List<List<String>> schemas, double[] weights, int parallelism) {
        if (weights != null) {
            if (weights.length != schemas.size()) {
                throw new IllegalArgumentException(weights.length + " weights for " + schemas.size() + " schemas");
            }
            for (double w : weights) {
                if (!(w > 0) || !Double.isFinite(w)) {
                    throw new IllegalArgumentException(
                            "weights must be positive and finite: " + Arrays.toString(weights));
                }
            }
        }
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
        double[] w = weights == null ? null : weights.clone();
        if (w == null) {
            w = new double[schemas.size()];
            Arrays.fill(w, 1);
        }
        Search s = new Search(has, w, k, parallelism);
        s.search(0, 1, new int[k]);
        return new Shares(variables, s.best);
    }

    /** Exhaustive search over share vectors (parallelism and variable counts are small). */
    private static final class Search {
        private final boolean[][] has;
        private final double[] weights;
        private final int k;
        private final int parallelism;
        private int[] best;
        private double bestLoad = Double.POSITIVE_INFINITY;
        private int bestCells;

        Search(boolean[][] has, double[] weights, int k, int parallelism) {
            this.has = has;
            this.weights = weights;
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
            for (int r = 0; r < has.length; r++) {
                int own = 1;
                for (int v = 0; v < k; v++) {
                    if (has[r][v]) {
                        own *= shares[v];
                    }
                }
                load += weights[r] / own;
            }
            // Candidates come in decreasing lexicographic order, so on a tie the first one seen keeps
            // the larger shares on earlier variables.
            double tolerance = Double.isInfinite(bestLoad) ? 0 : 1e-12 * Math.max(1, bestLoad);
            if (load < bestLoad - tolerance || (Math.abs(load - bestLoad) <= tolerance && cells > bestCells)) {
                bestLoad = load;
                bestCells = cells;
                best = shares.clone();
            }
        }
    }
}
