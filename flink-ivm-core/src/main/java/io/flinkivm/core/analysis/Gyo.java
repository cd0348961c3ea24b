package io.flinkivm.core.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * The GYO reduction of a hypergraph: repeatedly remove an <em>ear</em>, an edge whose variables
 * shared with the remaining edges all lie in one other remaining edge (its parent). The hypergraph
 * is α-acyclic iff one edge remains; the parents then form a join tree. Edges of disconnected
 * components are attached with an empty intersection, so the result is always a single tree.
 */
@Internal
public final class Gyo {
    private Gyo() {}

    /**
     * @param acyclic whether the reduction removed all edges but one
     * @param parent for each edge its parent in the join tree, -1 for the root (valid if acyclic)
     * @param residual the edges left when the reduction got stuck (empty if acyclic)
     */
    public record Result(boolean acyclic, int[] parent, List<Integer> residual) {
        public Result {
            parent = parent.clone();
            residual = List.copyOf(residual);
        }

        @Override
        public int[] parent() {
            return parent.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Result r
                    && r.acyclic == acyclic
                    && Arrays.equals(r.parent, parent)
                    && r.residual.equals(residual);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * Boolean.hashCode(acyclic) + Arrays.hashCode(parent)) + residual.hashCode();
        }
    }

    /**
     * Reduces the hypergraph with the given edges. Deterministic: ears are taken in index order and
     * the parent of an ear is the lowest-indexed remaining edge that contains its shared variables.
     */
    public static Result reduce(List<? extends Collection<String>> edges) {
        int n = edges.size();
        List<Set<String>> sets = new ArrayList<>(n);
        for (Collection<String> e : edges) {
            sets.add(new LinkedHashSet<>(e));
        }
        int[] parent = new int[n];
        Arrays.fill(parent, -1);
        boolean[] removed = new boolean[n];
        int remaining = n;
        boolean progress = true;
        while (remaining > 1 && progress) {
            progress = false;
            for (int e = 0; e < n && remaining > 1; e++) {
                if (removed[e]) {
                    continue;
                }
                Set<String> shared = sharedWithOthers(sets, removed, e);
                int p = parentFor(sets, removed, e, shared);
                if (p >= 0) {
                    parent[e] = p;
                    removed[e] = true;
                    remaining--;
                    progress = true;
                }
            }
        }
        List<Integer> residual = new ArrayList<>();
        if (remaining > 1) {
            for (int e = 0; e < n; e++) {
                if (!removed[e]) {
                    residual.add(e);
                }
            }
            Arrays.fill(parent, -1);
            return new Result(false, parent, residual);
        }
        return new Result(true, parent, residual);
    }

    private static Set<String> sharedWithOthers(List<Set<String>> sets, boolean[] removed, int e) {
        Set<String> shared = new HashSet<>();
        for (int f = 0; f < sets.size(); f++) {
            if (f != e && !removed[f]) {
                for (String v : sets.get(e)) {
                    if (sets.get(f).contains(v)) {
                        shared.add(v);
                    }
                }
            }
        }
        return shared;
    }

    /** The lowest-indexed remaining edge other than e that contains all of shared, or -1. */
    private static int parentFor(List<Set<String>> sets, boolean[] removed, int e, Set<String> shared) {
        for (int f = 0; f < sets.size(); f++) {
            if (f != e && !removed[f] && sets.get(f).containsAll(shared)) {
                return f;
            }
        }
        return -1;
    }
}
