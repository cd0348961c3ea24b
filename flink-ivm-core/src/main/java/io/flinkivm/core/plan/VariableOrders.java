package io.flinkivm.core.plan;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Algorithm 1 (CreateVarOrders) for a p-hierarchical query: the forest of extended bound variable
 * orders. Lines 1-4 draw an edge to each bound variable X from the bound variable that minimally
 * dominates it (X &lt; Y: at(X) ⊂ at(Y), or equal atom sets and X lexicographically smaller); lines
 * 5-9 hang each atom under its lowest bound variable. Each tree of the forest is one free-dominated
 * q-hierarchical subquery (Prop. 11); atoms over free variables only belong to no tree.
 *
 * <p>Trees are numbered by their first atom in body order; children are in lexicographic order.
 */
final class VariableOrders {
    private final Map<String, String> parentOf = new HashMap<>();
    private final Map<String, List<String>> childrenOf = new HashMap<>();
    private final Map<String, List<Integer>> atomsUnder = new HashMap<>();
    private final List<String> roots = new ArrayList<>();
    private final List<List<Integer>> treeAtoms = new ArrayList<>();
    private final List<Integer> freeOnlyAtoms = new ArrayList<>();

    private VariableOrders() {}

    /**
     * Runs Algorithm 1 on {@code query}.
     *
     * @throws IllegalStateException if the query is not p-hierarchical (Lemma 22 fails): a planner bug,
     *     since the planner only calls it on p-hierarchical queries
     */
    static VariableOrders create(ConjunctiveQuery query) {
        VariableOrders o = new VariableOrders();
        List<String> bound = query.bound();
        Map<String, BitSet> at = new HashMap<>();
        for (String v : bound) {
            at.put(v, query.atomsOf(v));
        }
        o.dominatorEdges(bound, at);
        o.attachAtoms(query);
        o.numberTrees(bound, at);
        return o;
    }

    /** Lines 1-4: an edge from each bound variable's minimal dominator. */
    private void dominatorEdges(List<String> bound, Map<String, BitSet> at) {
        for (String x : bound) {
            List<String> dominators = new ArrayList<>();
            for (String y : bound) {
                if (!y.equals(x) && less(at, x, y)) {
                    dominators.add(y);
                }
            }
            List<String> minimal = new ArrayList<>();
            for (String y : dominators) {
                boolean isMinimal = true;
                for (String z : dominators) {
                    if (!z.equals(y) && less(at, z, y)) {
                        isMinimal = false;
                        break;
                    }
                }
                if (isMinimal) {
                    minimal.add(y);
                }
            }
            if (minimal.size() > 1) {
                throw new IllegalStateException("bound variable " + x + " has several minimal dominators " + minimal
                        + " in a p-hierarchical query (Lemma 22 violated)");
            }
            if (minimal.size() == 1) {
                parentOf.put(x, minimal.get(0));
                childrenOf
                        .computeIfAbsent(minimal.get(0), k -> new ArrayList<>())
                        .add(x);
            }
        }
        for (List<String> children : childrenOf.values()) {
            Collections.sort(children);
        }
    }

    /** X &lt; Y: at(X) ⊂ at(Y), or equal atom sets and X lexicographically smaller. */
    private static boolean less(Map<String, BitSet> at, String x, String y) {
        BitSet ax = at.get(x);
        BitSet ay = at.get(y);
        if (ax.equals(ay)) {
            return x.compareTo(y) < 0;
        }
        BitSet inter = (BitSet) ax.clone();
        inter.and(ay);
        return inter.equals(ax);
    }

    /**
     * Lines 5-9: each atom with bound variables hangs under the deepest of them; the others must lie
     * on its root path (Lemma 22).
     */
    private void attachAtoms(ConjunctiveQuery query) {
        for (Atom a : query.body()) {
            String lowest = null;
            int depth = -1;
            for (String v : a.variables()) {
                if (!query.isFree(v) && depth(v) > depth) {
                    depth = depth(v);
                    lowest = v;
                }
            }
            if (lowest == null) {
                freeOnlyAtoms.add(a.index());
                continue;
            }
            List<String> path = pathTo(lowest);
            for (String v : a.variables()) {
                if (!query.isFree(v) && !path.contains(v)) {
                    throw new IllegalStateException("atom " + a + " has bound variables " + v + " and " + lowest
                            + " on different root paths of the bound variable orders (Lemma 22 violated)");
                }
            }
            atomsUnder.computeIfAbsent(lowest, k -> new ArrayList<>()).add(a.index());
        }
    }

    /** The trees' top variables, numbered by their first atom in body order (ties: order of {@code bound}). */
    private void numberTrees(List<String> bound, Map<String, BitSet> at) {
        List<String> tops = new ArrayList<>();
        List<BitSet> atoms = new ArrayList<>();
        for (String x : bound) {
            if (!parentOf.containsKey(x)) {
                BitSet treeAtoms = new BitSet();
                for (String v : subtree(x)) {
                    treeAtoms.or(at.get(v));
                }
                tops.add(x);
                atoms.add(treeAtoms);
            }
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < tops.size(); i++) {
            order.add(i);
        }
        order.sort((i, j) ->
                Integer.compare(atoms.get(i).nextSetBit(0), atoms.get(j).nextSetBit(0)));
        for (int i : order) {
            roots.add(tops.get(i));
            treeAtoms.add(atoms.get(i).stream().boxed().toList());
        }
    }

    private int depth(String x) {
        int d = 0;
        for (String p = parentOf.get(x); p != null; p = parentOf.get(p)) {
            d++;
        }
        return d;
    }

    /** The bound variables from the root of x's tree down to x. */
    List<String> pathTo(String x) {
        List<String> path = new ArrayList<>();
        for (String v = x; v != null; v = parentOf.get(v)) {
            path.add(0, v);
        }
        return path;
    }

    private List<String> subtree(String root) {
        List<String> out = new ArrayList<>();
        out.add(root);
        for (int i = 0; i < out.size(); i++) {
            out.addAll(children(out.get(i)));
        }
        return out;
    }

    /** The top bound variable of each tree, by tree number. */
    List<String> roots() {
        return Collections.unmodifiableList(roots);
    }

    /** The atoms of tree {@code tree} (of all its variables), in body order. */
    List<Integer> treeAtoms(int tree) {
        return treeAtoms.get(tree);
    }

    /** The bound variable that minimally dominates {@code x}, or null for a tree's top variable. */
    String parent(String x) {
        return parentOf.get(x);
    }

    /** The variables {@code x} minimally dominates, in lexicographic order. */
    List<String> children(String x) {
        return Collections.unmodifiableList(childrenOf.getOrDefault(x, List.of()));
    }

    /** The atoms hung under {@code x} (it is their lowest bound variable), in body order. */
    List<Integer> atomsUnder(String x) {
        return Collections.unmodifiableList(atomsUnder.getOrDefault(x, List.of()));
    }

    /** The atoms whose variables are all free (each becomes a trivial view tree), in body order. */
    List<Integer> freeOnlyAtoms() {
        return Collections.unmodifiableList(freeOnlyAtoms);
    }
}
