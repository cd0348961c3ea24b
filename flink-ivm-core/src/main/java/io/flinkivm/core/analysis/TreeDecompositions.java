package io.flinkivm.core.analysis;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * Minimum-width tree decompositions and the fractional hypertree width fhtw (Def. 5) of small
 * hypergraphs, by dynamic programming over elimination orders.
 *
 * <p>Every tree decomposition can be refined into one from an elimination order whose bags are
 * subsets of the original bags, and ρ* only shrinks on subsets, so the minimum over elimination
 * orders is fhtw. The bag of a vertex v eliminated after the set S is {v} ∪ Q(S, v), the vertices
 * outside S reachable from v through S; it depends on S only, so the best order over all subsets is
 * found in O(2^n · n) steps (the treewidth recurrence of Bodlaender et al.), with ρ* memoised per bag
 * and branches pruned by a greedy order's width and a cheap lower bound on ρ*. Vertices that lie in
 * exactly the same edges (twins) are merged first: some optimal decomposition keeps twins together.
 *
 * <p>All decompositions count, not only free-connex ones: this is the width of the Boolean version
 * of a query, which Prop. 13 shows equals fhtw for a p-hierarchical query, and of the join of the
 * root views above the border, which is a full query.
 */
@Internal
public final class TreeDecompositions {

    /** The search handles at most this many classes of twin vertices. */
    public static final int MAX_VERTEX_CLASSES = 16;
    /** ... and at most this many edges. */
    public static final int MAX_EDGES = 64;

    private static final double EPSILON = 1e-9;

    private TreeDecompositions() {}

    /** fhtw of the Boolean version of {@code q} (its atoms' variables as edges). */
    public static double fhtw(ConjunctiveQuery q) {
        return optimal(q).width();
    }

    /** A minimum-width tree decomposition of the Boolean version of {@code q}. */
    public static TreeDecomposition optimal(ConjunctiveQuery q) {
        List<List<String>> edges = new ArrayList<>();
        for (Atom a : q.body()) {
            edges.add(a.variables());
        }
        return optimal(edges);
    }

    /** fhtw of the hypergraph with the given edges. */
    public static double fhtw(List<? extends Collection<String>> edges) {
        return optimal(edges).width();
    }

    /**
     * Why the search would refuse {@code edges} (too many edges or classes of twin vertices), or null
     * if it handles them.
     */
    public static String limitViolation(List<? extends Collection<String>> edges) {
        if (edges.size() > MAX_EDGES) {
            return edges.size() + " edges, the tree decomposition search handles at most " + MAX_EDGES;
        }
        int classes = new Hypergraph(edges).classCount();
        if (classes > MAX_VERTEX_CLASSES) {
            return classes + " classes of variables (variables in the same edges form a class), the tree"
                    + " decomposition search handles at most " + MAX_VERTEX_CLASSES;
        }
        return null;
    }

    /**
     * A tree decomposition of minimum width. Deterministic: ties go to the earlier vertex.
     *
     * @throws IllegalArgumentException beyond {@link #MAX_EDGES} or {@link #MAX_VERTEX_CLASSES}
     */
    public static TreeDecomposition optimal(List<? extends Collection<String>> edges) {
        String violation = limitViolation(edges);
        if (violation != null) {
            throw new IllegalArgumentException("hypergraph too large for an exact fhtw: " + violation);
        }
        return new Search(new Hypergraph(edges)).run();
    }

    /** The hypergraph over classes of twin vertices, as bit masks. */
    private static final class Hypergraph {
        final List<String> vertices = new ArrayList<>();
        /** Per class, its vertices in order. */
        final List<List<String>> classes = new ArrayList<>();
        /** Per edge, the classes it contains. */
        final long[] edges;

        Hypergraph(List<? extends Collection<String>> edgeList) {
            Map<String, Long> incidence = new LinkedHashMap<>();
            for (int e = 0; e < edgeList.size(); e++) {
                for (String v : edgeList.get(e)) {
                    incidence.merge(v, 1L << e, (a, b) -> a | b);
                }
            }
            Map<Long, Integer> classOf = new HashMap<>();
            List<Long> classIncidence = new ArrayList<>();
            for (Map.Entry<String, Long> en : incidence.entrySet()) {
                vertices.add(en.getKey());
                Integer c = classOf.get(en.getValue());
                if (c == null) {
                    c = classes.size();
                    classOf.put(en.getValue(), c);
                    classes.add(new ArrayList<>());
                    classIncidence.add(en.getValue());
                }
                classes.get(c).add(en.getKey());
            }
            edges = new long[edgeList.size()];
            if (classes.size() <= Long.SIZE) {
                for (int c = 0; c < classes.size(); c++) {
                    for (int e = 0; e < edges.length; e++) {
                        if ((classIncidence.get(c) & (1L << e)) != 0) {
                            edges[e] |= 1L << c;
                        }
                    }
                }
            }
        }

        int classCount() {
            return classes.size();
        }

        /** The vertices of the classes in {@code mask}, in vertex order. */
        List<String> expand(long mask) {
            List<String> out = new ArrayList<>();
            for (String v : vertices) {
                for (int c = 0; c < classes.size(); c++) {
                    if ((mask & (1L << c)) != 0 && classes.get(c).contains(v)) {
                        out.add(v);
                    }
                }
            }
            return out;
        }
    }

    private static final class Search {
        private final Hypergraph h;
        private final int n;
        private final long[] adjacent;
        private final Map<Long, Double> rhoMemo = new HashMap<>();

        Search(Hypergraph h) {
            this.h = h;
            this.n = h.classCount();
            adjacent = new long[n];
            for (long e : h.edges) {
                for (int c = 0; c < n; c++) {
                    if ((e & (1L << c)) != 0) {
                        adjacent[c] |= e & ~(1L << c);
                    }
                }
            }
        }

        TreeDecomposition run() {
            if (n == 0) {
                return new TreeDecomposition(List.of(), List.of(), List.of());
            }
            int[] order = bestOrder();
            return build(order);
        }

        private double rho(long bag) {
            Double r = rhoMemo.get(bag);
            if (r == null) {
                r = EdgeCover.rho(h.edges, bag);
                rhoMemo.put(bag, r);
            }
            return r;
        }

        /** ρ* ≥ |bag| / (most classes of the bag in one edge), and ≥ 1. */
        private double lowerBound(long bag) {
            int most = 1;
            for (long e : h.edges) {
                most = Math.max(most, Long.bitCount(e & bag));
            }
            return Math.max(1, (double) Long.bitCount(bag) / most);
        }

        /** {v} ∪ Q(eliminated, v): v and the vertices outside {@code eliminated} reachable through it. */
        private long bag(long eliminated, int v) {
            long component = 1L << v;
            long frontier = component;
            long reach = 0;
            while (frontier != 0) {
                long next = 0;
                for (long rest = frontier; rest != 0; rest &= rest - 1) {
                    next |= adjacent[Long.numberOfTrailingZeros(rest)];
                }
                reach |= next;
                frontier = next & eliminated & ~component;
                component |= frontier;
            }
            return (1L << v) | (reach & ~eliminated & ~(1L << v));
        }

        /** The width of eliminating greedily the vertex with the smallest bag ρ*: an upper bound. */
        private double greedyWidth() {
            long eliminated = 0;
            double width = 0;
            for (int step = 0; step < n; step++) {
                int best = -1;
                double bestRho = Double.POSITIVE_INFINITY;
                for (int v = 0; v < n; v++) {
                    if ((eliminated & (1L << v)) == 0) {
                        double r = rho(bag(eliminated, v));
                        if (r < bestRho - EPSILON) {
                            best = v;
                            bestRho = r;
                        }
                    }
                }
                width = Math.max(width, bestRho);
                eliminated |= 1L << best;
            }
            return width;
        }

        /** An elimination order of minimum width (first eliminated first). */
        private int[] bestOrder() {
            double upper = greedyWidth();
            int full = (1 << n) - 1;
            double[] width = new double[full + 1];
            byte[] last = new byte[full + 1];
            for (int s = 1; s <= full; s++) {
                double best = Double.POSITIVE_INFINITY;
                int bestV = -1;
                for (int rest = s; rest != 0; rest &= rest - 1) {
                    int v = Integer.numberOfTrailingZeros(rest);
                    double before = width[s & ~(1 << v)];
                    if (before > upper + EPSILON || before >= best - EPSILON) {
                        continue;
                    }
                    long b = bag(s & ~(1L << v), v);
                    double bound = Math.max(before, lowerBound(b));
                    if (bound > upper + EPSILON || bound >= best - EPSILON) {
                        continue;
                    }
                    double w = Math.max(before, rho(b));
                    if (w < best - EPSILON) {
                        best = w;
                        bestV = v;
                    }
                }
                width[s] = best;
                last[s] = (byte) bestV;
            }
            if (last[full] < 0) {
                throw new IllegalStateException("no elimination order within the greedy width " + upper);
            }
            int[] order = new int[n];
            int s = full;
            for (int i = n - 1; i >= 0; i--) {
                order[i] = last[s];
                s &= ~(1 << order[i]);
            }
            return order;
        }

        /** The decomposition of an elimination order, redundant bags contracted, rooted at the widest bag. */
        private TreeDecomposition build(int[] order) {
            int[] position = new int[n];
            for (int i = 0; i < n; i++) {
                position[order[i]] = i;
            }
            List<Long> bags = new ArrayList<>();
            List<Integer> parent = new ArrayList<>();
            long eliminated = 0;
            for (int i = 0; i < n; i++) {
                int v = order[i];
                long b = bag(eliminated, v);
                bags.add(b);
                eliminated |= 1L << v;
                int up = -1;
                for (long rest = b & ~(1L << v); rest != 0; rest &= rest - 1) {
                    int u = Long.numberOfTrailingZeros(rest);
                    if (up < 0 || position[u] < up) {
                        up = position[u];
                    }
                }
                parent.add(up);
            }
            contract(bags, parent);
            return reroot(bags, parent);
        }

        /** Merges every bag into a neighbouring bag that contains it. */
        private static void contract(List<Long> bags, List<Integer> parent) {
            boolean changed = true;
            while (changed) {
                changed = false;
                for (int x = 0; x < bags.size() && !changed; x++) {
                    int p = parent.get(x);
                    if (bags.get(x) == null || p < 0) {
                        continue;
                    }
                    long bx = bags.get(x);
                    long bp = bags.get(p);
                    if ((bx & ~bp) == 0 || (bp & ~bx) == 0) {
                        bags.set(p, bx | bp);
                        bags.set(x, null);
                        for (int c = 0; c < bags.size(); c++) {
                            if (parent.get(c) == x) {
                                parent.set(c, p);
                            }
                        }
                        parent.set(x, -1);
                        changed = true;
                    }
                }
            }
        }

        /** Roots the forest at its widest bag, hangs the other components below it, numbers bags in pre-order. */
        private TreeDecomposition reroot(List<Long> bags, List<Integer> parent) {
            int m = bags.size();
            List<List<Integer>> neighbours = new ArrayList<>();
            for (int i = 0; i < m; i++) {
                neighbours.add(new ArrayList<>());
            }
            int root = -1;
            for (int i = 0; i < m; i++) {
                if (bags.get(i) == null) {
                    continue;
                }
                if (parent.get(i) >= 0) {
                    neighbours.get(i).add(parent.get(i));
                    neighbours.get(parent.get(i)).add(i);
                }
                if (root < 0 || wider(bags.get(i), bags.get(root))) {
                    root = i;
                }
            }
            for (List<Integer> ns : neighbours) {
                ns.sort(null);
            }
            List<List<String>> outBags = new ArrayList<>();
            List<Integer> outParent = new ArrayList<>();
            List<Double> outRho = new ArrayList<>();
            int[] index = new int[m];
            Arrays.fill(index, -1);
            visit(root, -1, bags, neighbours, index, outBags, outParent, outRho);
            // Other components (cross products) hang below the root.
            for (int i = 0; i < m; i++) {
                if (bags.get(i) != null && index[i] < 0) {
                    visit(i, 0, bags, neighbours, index, outBags, outParent, outRho);
                }
            }
            return new TreeDecomposition(outBags, outParent, outRho);
        }

        private boolean wider(long a, long b) {
            double ra = rho(a);
            double rb = rho(b);
            if (Math.abs(ra - rb) > EPSILON) {
                return ra > rb;
            }
            return Long.bitCount(a) > Long.bitCount(b);
        }

        private void visit(
                int node,
                int parentIndex,
                List<Long> bags,
                List<List<Integer>> neighbours,
                int[] index,
                List<List<String>> outBags,
                List<Integer> outParent,
                List<Double> outRho) {
            index[node] = outBags.size();
            outBags.add(h.expand(bags.get(node)));
            outParent.add(parentIndex);
            outRho.add(rho(bags.get(node)));
            for (int c : neighbours.get(node)) {
                if (index[c] < 0) {
                    visit(c, index[node], bags, neighbours, index, outBags, outParent, outRho);
                }
            }
        }
    }
}
