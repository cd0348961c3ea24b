package io.flinkivm.core.engine.viewtree;

import io.flinkivm.core.engine.join.CompiledBagJoin;
import io.flinkivm.core.engine.join.CompiledJoinTree;
import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.plan.CyclicPHierarchicalPlan;
import io.flinkivm.core.plan.JoinTreeNode;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link ViewTreePlan} compiled to array positions: which projection of a delta's
 * tuple goes where. Built once per runtime (the in-memory engine, or each Flink task in {@code open()}).
 * As a {@link JoinLayout} it is the join tree over the root views; for a
 * {@link CyclicPHierarchicalPlan} only the part below the border is compiled here, the
 * layout has no nodes, and the join over the bags is {@link CompiledBagJoin}.
 */
public final class CompiledPlan extends CompiledJoinTree {
    private final Map<String, int[]> atomsOfRelation = new HashMap<>();
    private final Map<String, Integer> arityOfRelation = new HashMap<>();
    private final int[][] atomKeyPositions;
    private final int[][] nodeKeyPositions;

    public CompiledPlan(ViewTreePlan plan) {
        super(plan, joinNodes(plan), joinOrder(plan), "root view");
        ConjunctiveQuery q = plan.query();
        Map<String, List<Integer>> byRelation = new HashMap<>();
        for (Atom a : q.body()) {
            byRelation.computeIfAbsent(a.relation(), k -> new ArrayList<>()).add(a.index());
            arityOfRelation.put(a.relation(), a.arity());
        }
        byRelation.forEach((r, atoms) -> atomsOfRelation.put(r, atoms.stream().mapToInt(Integer::intValue).toArray()));
        int atomCount = q.body().size();
        atomKeyPositions = new int[atomCount][];
        for (Atom a : q.body()) {
            atomKeyPositions[a.index()] = positions(a.variables(), plan.atomRoute(a.index()).key(), a.toString());
        }
        List<ViewNode> nodes = plan.viewNodes();
        nodeKeyPositions = new int[nodes.size()][];
        for (ViewNode n : nodes) {
            nodeKeyPositions[n.id()] = positions(n.schema(), plan.nodeRoute(n.id()).key(), n.displayName());
        }
    }

    /** The join tree over the root views; none in the cyclic plan. */
    private static List<Node> joinNodes(ViewTreePlan plan) {
        List<Node> out = new ArrayList<>();
        if (!(plan instanceof PHierarchicalPlan acyclic)) {
            return out;
        }
        List<JoinTreeNode> join = acyclic.joinTree();
        for (ViewTree t : plan.viewTrees()) {
            JoinTreeNode j = join.get(t.index());
            out.add(new Node(t.schema(), j.parent(), j.key(), t.displayName()));
        }
        return out;
    }

    private static int[] joinOrder(ViewTreePlan plan) {
        return plan instanceof PHierarchicalPlan acyclic
                ? acyclic.joinOrder().stream().mapToInt(Integer::intValue).toArray() : new int[0];
    }

    /**
     * The atoms of a physical relation, checking the tuple's arity.
     *
     * @throws IllegalArgumentException for an unknown relation or a wrong arity
     */
    public int[] atomsOf(String relation, int arity) {
        int[] atoms = atomsOfRelation.get(relation);
        if (atoms == null) {
            throw new IllegalArgumentException("unknown relation '" + relation + "'; the query uses "
                    + String.join(", ", plan().query().relations()));
        }
        int expected = arityOfRelation.get(relation);
        if (arity != expected) {
            throw new IllegalArgumentException("relation " + relation + " has arity " + expected + ", got "
                    + arity + " values");
        }
        return atoms;
    }

    /** The key a matched atom tuple (over the atom's variables) has at the atom's route. */
    public Tuple atomKey(int atom, Tuple atomTuple) {
        return atomTuple.project(atomKeyPositions[atom]);
    }

    /** The key a node's projection delta has at the node's route. */
    public Tuple nodeOutputKey(int node, Tuple nodeKey) {
        return nodeKey.project(nodeKeyPositions[node]);
    }
}
