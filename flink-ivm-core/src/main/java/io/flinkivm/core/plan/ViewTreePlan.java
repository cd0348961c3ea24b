package io.flinkivm.core.plan;

import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * The paper's plan for p-hierarchical queries over positive semirings: the view trees of
 * {@link #forest()} over the user's semiring below the border, and the Boolean join of their root
 * views above it, along a join tree ({@link PHierarchicalPlan}) or the bags of a tree decomposition
 * ({@link CyclicPHierarchicalPlan}); or, for q-hierarchical queries under inserts and deletes, along
 * the q-tree of the free variables ({@link QHierarchicalPlan}).
 */
@Internal
public sealed interface ViewTreePlan extends MaintenancePlan
        permits PHierarchicalPlan, CyclicPHierarchicalPlan, QHierarchicalPlan {

    /** The view trees, their nodes and the routes of deltas between them (below the border). */
    ViewTreeForest forest();

    /**
     * The fractional hypertree width of the join of the root views above the border: 1 for the
     * α-acyclic plan, the decomposition's width for the cyclic plan. The proof of Thm. 1 shows it is
     * at most fhtw of the Boolean version of the query.
     */
    double fhtw();

    /** The view trees: bound-variable trees first, then trivial trees. */
    default List<ViewTree> viewTrees() {
        return forest().trees();
    }

    /** One node per bound variable, indexed by {@link ViewNode#id()}. */
    default List<ViewNode> viewNodes() {
        return forest().nodes();
    }

    /** The stateful nodes, in id order. */
    default List<ViewNode> statefulNodes() {
        return forest().statefulNodes();
    }

    /** Where a delta of atom i goes first. */
    default Route atomRoute(int atom) {
        return forest().atomRoutes().get(atom);
    }

    /** Where the projection delta of node {@code node} goes. */
    default Route nodeRoute(int node) {
        return forest().nodeRoutes().get(node);
    }

    /** How the plan names tree {@code t}'s root view: {@code V[A,C]}, or the atom of a trivial tree. */
    default String rootName(ViewTree t) {
        return PlanText.rootName(query(), t);
    }
}
