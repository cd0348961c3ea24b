package io.flinkivm.core.engine.viewtree;

import io.flinkivm.core.engine.cyclic.CompiledBagJoin;
import io.flinkivm.core.engine.join.CompiledJoinTree;
import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.plan.CyclicPHierarchicalPlan;
import io.flinkivm.core.plan.JoinTreeNode;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.AtomRouter;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * A {@link ViewTreePlan} compiled to array positions: which projection of a delta's
 * tuple goes where. Built once per runtime (the in-memory engine, or each Flink task in {@code open()}).
 * As a {@link JoinLayout} it is the join tree over the root views; for a
 * {@link CyclicPHierarchicalPlan} only the part below the border is compiled here, the
 * layout has no nodes, and the join over the bags is {@link CompiledBagJoin}.
 */
@Internal
public final class CompiledPlan extends CompiledJoinTree {
    private final AtomRouter router;
    private final int[][] nodeKeyPositions;

    public CompiledPlan(ViewTreePlan plan) {
        super(plan, joinNodes(plan), joinOrder(plan), "root view");
        ConjunctiveQuery q = plan.query();
        int[][] atomKeyPositions = new int[q.body().size()][];
        for (Atom a : q.body()) {
            atomKeyPositions[a.index()] =
                    positions(a.variables(), plan.atomRoute(a.index()).key(), a.toString());
        }
        router = new AtomRouter(q, atomKeyPositions);
        List<ViewNode> nodes = plan.viewNodes();
        nodeKeyPositions = new int[nodes.size()][];
        for (ViewNode n : nodes) {
            nodeKeyPositions[n.id()] =
                    positions(n.schema(), plan.nodeRoute(n.id()).key(), n.displayName());
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
                ? acyclic.joinOrder().stream().mapToInt(Integer::intValue).toArray()
                : new int[0];
    }

    /** Splits an insert into its atoms' deltas, each keyed by the atom's route ({@link ViewTreeLogic#walk}'s key). */
    public AtomRouter router() {
        return router;
    }

    /** The key a node's projection delta has at the node's route. */
    public Tuple nodeOutputKey(int node, Tuple nodeKey) {
        return nodeKey.project(nodeKeyPositions[node]);
    }
}
