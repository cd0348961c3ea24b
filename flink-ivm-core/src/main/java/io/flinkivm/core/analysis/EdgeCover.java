package io.flinkivm.core.analysis;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.optim.MaxIter;
import org.apache.commons.math3.optim.PointValuePair;
import org.apache.commons.math3.optim.linear.LinearConstraint;
import org.apache.commons.math3.optim.linear.LinearConstraintSet;
import org.apache.commons.math3.optim.linear.LinearObjectiveFunction;
import org.apache.commons.math3.optim.linear.NonNegativeConstraint;
import org.apache.commons.math3.optim.linear.Relationship;
import org.apache.commons.math3.optim.linear.SimplexSolver;
import org.apache.commons.math3.optim.nonlinear.scalar.GoalType;
import org.apache.flink.annotation.Internal;

/**
 * Fractional edge covers (Sec. 2): the fractional edge cover number ρ*(S) of a set S of vertices
 * of a hypergraph is the value of the linear program "minimise Σ ρ(e) such that Σ_{e ∋ v} ρ(e) ≥ 1
 * for every v ∈ S, 0 ≤ ρ ≤ 1" over the edges e ∩ S of the induced hypergraph Q[S]. Solved with
 * commons-math3's {@link SimplexSolver}; the value is snapped to the nearby fraction with a small
 * denominator (an optimal vertex of this LP is rational), so that 1.5 prints as 1.5.
 */
@Internal
public final class EdgeCover {
    private static final double EPSILON = 1e-7;
    private static final int MAX_DENOMINATOR = 64;

    private EdgeCover() {}

    /**
     * An optimal fractional edge cover.
     *
     * @param value ρ*, Σ of the weights, snapped to a small fraction
     * @param weights the weight of each edge, in the order the edges were given (0 for edges that
     *     miss the covered set or that the optimum does not use)
     */
    public record Cover(double value, List<Double> weights) {
        public Cover {
            weights = List.copyOf(weights);
        }
    }

    /** ρ* of {@code vertices} over {@code edges}; see {@link #optimal}. */
    public static double rho(List<? extends Collection<String>> edges, Collection<String> vertices) {
        return optimal(edges, vertices).value();
    }

    /**
     * An optimal fractional edge cover of {@code vertices} by the edges of the hypergraph.
     *
     * @throws IllegalArgumentException if some vertex lies in no edge (it cannot be covered)
     */
    public static Cover optimal(List<? extends Collection<String>> edges, Collection<String> vertices) {
        List<String> cover = List.copyOf(new LinkedHashSet<>(vertices));
        long[] masks = new long[edges.size()];
        if (cover.size() > Long.SIZE) {
            throw new IllegalArgumentException("at most " + Long.SIZE + " vertices per cover, got " + cover.size());
        }
        for (int e = 0; e < edges.size(); e++) {
            for (String v : edges.get(e)) {
                int i = cover.indexOf(v);
                if (i >= 0) {
                    masks[e] |= 1L << i;
                }
            }
        }
        long all = cover.isEmpty() ? 0 : -1L >>> (Long.SIZE - cover.size());
        long covered = 0;
        for (long m : masks) {
            covered |= m;
        }
        if (covered != all) {
            int missing = Long.numberOfTrailingZeros(all & ~covered);
            throw new IllegalArgumentException("vertex " + cover.get(missing) + " lies in no edge of " + edges
                    + "; it has no fractional edge cover");
        }
        double[] weights = solve(masks, cover.size());
        List<Double> out = new ArrayList<>();
        double sum = 0;
        for (double w : weights) {
            double snapped = snap(w);
            out.add(snapped);
            sum += snapped;
        }
        return new Cover(snap(sum), out);
    }

    /**
     * ρ* of the vertices {@code 0..vertexCount-1} over edges given as bit masks (edges may miss the set).
     * Package-private: the decomposition search calls it with vertex classes.
     */
    static double rho(long[] edgeMasks, long vertices) {
        int[] index = new int[Long.SIZE];
        int n = 0;
        for (long rest = vertices; rest != 0; rest &= rest - 1) {
            index[n++] = Long.numberOfTrailingZeros(rest);
        }
        long[] local = new long[edgeMasks.length];
        for (int e = 0; e < edgeMasks.length; e++) {
            for (int i = 0; i < n; i++) {
                if ((edgeMasks[e] & (1L << index[i])) != 0) {
                    local[e] |= 1L << i;
                }
            }
        }
        double sum = 0;
        for (double w : solve(local, n)) {
            sum += w;
        }
        return snap(sum);
    }

    /** The LP over the edges' intersections with vertices 0..n-1; weights per input edge. */
    private static double[] solve(long[] masks, int n) {
        double[] weights = new double[masks.length];
        if (n == 0) {
            return weights;
        }
        // Keep one edge per maximal intersection: a subsumed edge is never needed in an optimum.
        List<Integer> kept = new ArrayList<>();
        for (int e = 0; e < masks.length; e++) {
            if (masks[e] == 0) {
                continue;
            }
            boolean dominated = false;
            for (int f = 0; f < masks.length && !dominated; f++) {
                boolean inside = (masks[e] & ~masks[f]) == 0;
                dominated = f != e && inside && (masks[f] != masks[e] || f < e);
            }
            if (!dominated) {
                kept.add(e);
            }
        }
        if (kept.size() == 1) {
            weights[kept.get(0)] = 1;
            return weights;
        }
        int m = kept.size();
        double[] ones = new double[m];
        Arrays.fill(ones, 1);
        List<LinearConstraint> constraints = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            double[] row = new double[m];
            for (int k = 0; k < m; k++) {
                row[k] = (masks[kept.get(k)] & (1L << v)) != 0 ? 1 : 0;
            }
            constraints.add(new LinearConstraint(row, Relationship.GEQ, 1));
        }
        for (int k = 0; k < m; k++) {
            double[] row = new double[m];
            row[k] = 1;
            constraints.add(new LinearConstraint(row, Relationship.LEQ, 1));
        }
        PointValuePair solution = new SimplexSolver()
                .optimize(
                        new MaxIter(10_000),
                        new LinearObjectiveFunction(ones, 0),
                        new LinearConstraintSet(constraints),
                        GoalType.MINIMIZE,
                        new NonNegativeConstraint(true));
        double[] point = solution.getPoint();
        for (int k = 0; k < m; k++) {
            weights[kept.get(k)] = Math.max(0, point[k]);
        }
        return weights;
    }

    /** {@code x} snapped to the fraction p/q (q ≤ 64) within 1e-7 of it, if there is one. */
    static double snap(double x) {
        for (int q = 1; q <= MAX_DENOMINATOR; q++) {
            double p = Math.rint(x * q);
            if (Math.abs(x * q - p) < EPSILON * q) {
                return p / q;
            }
        }
        return x;
    }

    /**
     * A width or cover number as text: an integer ({@code 2}), a terminating decimal ({@code 1.5},
     * {@code 1.25}), otherwise a fraction ({@code 5/3}) or, failing that, four decimals.
     */
    public static String format(double x) {
        for (int q = 1; q <= MAX_DENOMINATOR; q++) {
            double p = Math.rint(x * q);
            if (Math.abs(x * q - p) < EPSILON * q) {
                int d = q;
                while (d % 2 == 0) {
                    d /= 2;
                }
                while (d % 5 == 0) {
                    d /= 5;
                }
                if (d == 1) {
                    return BigDecimal.valueOf((long) p)
                            .divide(BigDecimal.valueOf(q))
                            .stripTrailingZeros()
                            .toPlainString();
                }
                return (long) p + "/" + q;
            }
        }
        return String.format(Locale.ROOT, "%.4f", x);
    }
}
