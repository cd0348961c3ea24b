package io.flinkivm.core.analysis;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * A tree decomposition (T, χ) of a hypergraph (Sec. 2), with the fractional edge cover number of each
 * bag. Bags are numbered in pre-order: bag 0 is the root, a parent comes before its children. Its
 * width is the largest ρ* of a bag; a decomposition from {@link TreeDecompositions#optimal} has width
 * fhtw. Disconnected parts of the hypergraph hang below the root with no shared variable.
 *
 * @param bags χ(t) for each node t, variables in order of first occurrence in the hypergraph
 * @param parent the parent of each node, -1 for the root
 * @param rho ρ*(Q[χ(t)]) for each node
 */
@Internal
public record TreeDecomposition(List<List<String>> bags, List<Integer> parent, List<Double> rho)
        implements Serializable {

    public TreeDecomposition {
        List<List<String>> copy = new ArrayList<>();
        for (List<String> b : bags) {
            copy.add(List.copyOf(b));
        }
        bags = List.copyOf(copy);
        parent = List.copyOf(parent);
        rho = List.copyOf(rho);
        if (parent.size() != bags.size() || rho.size() != bags.size()) {
            throw new IllegalArgumentException("a tree decomposition needs one parent and one ρ* per bag");
        }
        for (int t = 0; t < parent.size(); t++) {
            int p = parent.get(t);
            if (t == 0 ? p != -1 : p < 0 || p >= t) {
                throw new IllegalArgumentException(
                        "bags must be in pre-order with bag 0 the root; bag " + t + " has parent " + p);
            }
        }
    }

    /** The width: the largest ρ* of a bag (0 without bags). */
    public double width() {
        double w = 0;
        for (double r : rho) {
            w = Math.max(w, r);
        }
        return w;
    }

    /** The width as text, e.g. {@code 1.5} or {@code 2}; see {@link EdgeCover#format}. */
    public String widthText() {
        return EdgeCover.format(width());
    }

    /** The tree's edges as {@code [child, parent]} pairs, in child order. */
    public List<List<Integer>> treeEdges() {
        List<List<Integer>> out = new ArrayList<>();
        for (int t = 1; t < bags.size(); t++) {
            out.add(List.of(t, parent.get(t)));
        }
        return out;
    }

    /** The variables bag {@code t} shares with its parent, in the bag's order (empty for the root). */
    public List<String> keyToParent(int t) {
        List<String> out = new ArrayList<>();
        if (parent.get(t) >= 0) {
            for (String v : bags.get(t)) {
                if (bags.get(parent.get(t)).contains(v)) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    /**
     * Whether this is a tree decomposition of {@code edges}: every edge lies in some bag, and the bags
     * holding a vertex form a connected subtree. Returns a description of the first violation, or null.
     */
    public String violation(List<? extends Collection<String>> edges) {
        for (Collection<String> e : edges) {
            boolean inBag = false;
            for (List<String> b : bags) {
                inBag |= b.containsAll(e);
            }
            if (!inBag) {
                return "edge " + e + " lies in no bag";
            }
        }
        Set<String> vertices = new HashSet<>();
        for (List<String> b : bags) {
            vertices.addAll(b);
        }
        for (String v : vertices) {
            // Connected iff exactly one bag holding v has a parent that does not hold v.
            int tops = 0;
            for (int t = 0; t < bags.size(); t++) {
                if (bags.get(t).contains(v)
                        && (parent.get(t) < 0 || !bags.get(parent.get(t)).contains(v))) {
                    tops++;
                }
            }
            if (tops != 1) {
                return "the bags holding " + v + " are not connected";
            }
        }
        return null;
    }

    /** One line per bag, indented by depth: {@code bag 1 {A,B,D}: ρ* = 2, shares B,D with bag 0}. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (int t = 0; t < bags.size(); t++) {
            int depth = 0;
            for (int p = parent.get(t); p >= 0; p = parent.get(p)) {
                depth++;
            }
            sb.append("  ".repeat(depth))
                    .append("bag ")
                    .append(t)
                    .append(" {")
                    .append(String.join(",", bags.get(t)))
                    .append("}: ρ* = ")
                    .append(EdgeCover.format(rho.get(t)));
            if (parent.get(t) >= 0) {
                List<String> key = keyToParent(t);
                sb.append(
                        key.isEmpty()
                                ? ", no variable shared with bag " + parent.get(t)
                                : ", shares " + String.join(",", key) + " with bag " + parent.get(t));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
