package io.flinkivm.core.engine;

import io.flinkivm.core.plan.JoinTreeNode;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Route;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A p-hierarchical {@link MaintenancePlan} compiled to array positions: which projection of a delta's
 * tuple goes where. Built once per runtime (the in-memory engine, or each Flink task in {@code open()}).
 * As a {@link JoinLayout} it is the join tree over the root views; for a
 * {@link PlanKind#CYCLIC_P_HIERARCHICAL} plan only the part below the border is compiled here, the
 * layout has no nodes, and the join over the bags is {@link CompiledBagJoin}.
 */
public final class CompiledPlan implements JoinLayout {
    private final MaintenancePlan plan;
    private final Map<String, int[]> atomsOfRelation = new HashMap<>();
    private final Map<String, Integer> arityOfRelation = new HashMap<>();
    private final int[][] atomKeyPositions;
    private final int[][] nodeKeyPositions;
    private final int[][] rootKeyInHead;
    private final int[][] children;
    private final int[] childIndexInParent;
    private final int[][] keyInOwn;
    private final int[][] keyInParent;
    private final int[] headTree;
    private final int[] headPosition;
    private final int[] order;
    private final int[] orderParentPosition;

    public CompiledPlan(MaintenancePlan plan) {
        if (plan.kind() != PlanKind.P_HIERARCHICAL && plan.kind() != PlanKind.CYCLIC_P_HIERARCHICAL) {
            throw new IllegalArgumentException("not a p-hierarchical plan: " + plan);
        }
        this.plan = plan;
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
        List<ViewTree> trees = plan.viewTrees();
        int treeCount = trees.size();
        rootKeyInHead = new int[treeCount][];
        for (int i = 0; i < treeCount; i++) {
            rootKeyInHead[i] = positions(q.head(), trees.get(i).schema(), trees.get(i).displayName());
        }
        if (plan.kind() == PlanKind.CYCLIC_P_HIERARCHICAL) {
            keyInOwn = new int[0][];
            keyInParent = new int[0][];
            children = new int[0][];
            childIndexInParent = new int[0];
            order = new int[0];
            orderParentPosition = new int[0];
            headTree = new int[0];
            headPosition = new int[0];
            return;
        }
        List<JoinTreeNode> join = plan.joinTree();
        keyInOwn = new int[treeCount][];
        keyInParent = new int[treeCount][];
        children = new int[treeCount][];
        childIndexInParent = new int[treeCount];
        List<List<Integer>> kids = new ArrayList<>();
        for (int i = 0; i < treeCount; i++) {
            kids.add(new ArrayList<>());
        }
        for (int i = 0; i < treeCount; i++) {
            ViewTree t = trees.get(i);
            JoinTreeNode j = join.get(i);
            keyInOwn[i] = positions(t.schema(), j.key(), t.displayName());
            if (j.parent() >= 0) {
                keyInParent[i] = positions(trees.get(j.parent()).schema(), j.key(), t.displayName());
                childIndexInParent[i] = kids.get(j.parent()).size();
                kids.get(j.parent()).add(i);
            } else {
                keyInParent[i] = new int[0];
                childIndexInParent[i] = -1;
            }
        }
        for (int i = 0; i < treeCount; i++) {
            children[i] = kids.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        order = plan.joinOrder().stream().mapToInt(Integer::intValue).toArray();
        orderParentPosition = new int[order.length];
        for (int p = 0; p < order.length; p++) {
            int parent = join.get(order[p]).parent();
            orderParentPosition[p] = parent < 0 ? -1 : indexOf(order, parent);
        }
        headTree = new int[q.head().size()];
        headPosition = new int[q.head().size()];
        for (int h = 0; h < q.head().size(); h++) {
            String v = q.head().get(h);
            headTree[h] = -1;
            for (int p = 0; p < order.length && headTree[h] < 0; p++) {
                int pos = trees.get(order[p]).schema().indexOf(v);
                if (pos >= 0) {
                    headTree[h] = p;
                    headPosition[h] = pos;
                }
            }
            if (headTree[h] < 0) {
                throw new IllegalStateException("free variable " + v + " is in no root view of " + plan);
            }
        }
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        throw new IllegalStateException("join order misses tree " + v);
    }

    /** Positions in {@code from} of the variables {@code to}, in order. */
    static int[] positions(List<String> from, List<String> to, String where) {
        int[] out = new int[to.size()];
        for (int i = 0; i < to.size(); i++) {
            out[i] = from.indexOf(to.get(i));
            if (out[i] < 0) {
                throw new IllegalStateException("variable " + to.get(i) + " of " + to + " missing from " + from
                        + " at " + where);
            }
        }
        return out;
    }

    public MaintenancePlan plan() {
        return plan;
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
                    + String.join(", ", plan.query().relations()));
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

    public int treeCount() {
        return plan.viewTrees().size();
    }

    /** The join-tree nodes: one per view tree in the acyclic plan, none in the cyclic plan. */
    @Override
    public int nodeCount() {
        return order.length;
    }

    /** The join-tree children of a tree. */
    @Override
    public int[] joinChildren(int tree) {
        return children[tree];
    }

    /** A tree's index among its parent's join children (-1 for the root). */
    @Override
    public int childIndexInParent(int tree) {
        return childIndexInParent[tree];
    }

    @Override
    public int joinParent(int tree) {
        return plan.joinTree().get(tree).parent();
    }

    /** A tree's root tuple projected onto its join key with the parent. */
    @Override
    public Tuple keyToParent(int tree, Tuple rootTuple) {
        return rootTuple.project(keyInOwn[tree]);
    }

    /** A parent's root tuple projected onto its join key with child tree {@code child}. */
    @Override
    public Tuple keyOfChild(int child, Tuple parentTuple) {
        return parentTuple.project(keyInParent[child]);
    }

    /** A result tuple (head order) projected onto tree {@code tree}'s root schema. */
    public Tuple rootKeyOfHead(int tree, Tuple head) {
        return head.project(rootKeyInHead[tree]);
    }

    /** The join trees in pre-order. */
    @Override
    public int[] order() {
        return order;
    }

    /** For each position in {@link #order()}, the position of its parent (-1 for the root). */
    @Override
    public int[] orderParentPosition() {
        return orderParentPosition;
    }

    /** Assembles a result tuple from the root tuples at each position of {@link #order()}. */
    @Override
    public Tuple assembleHead(Tuple[] byOrderPosition) {
        Object[] values = new Object[headTree.length];
        for (int h = 0; h < values.length; h++) {
            values[h] = byOrderPosition[headTree[h]].get(headPosition[h]);
        }
        return Tuple.wrap(values);
    }
}
