package io.flinkivm.core.plan;

import io.flinkivm.core.analysis.Classification;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.SemiringProperty;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * The paper's plan for α-acyclic p-hierarchical queries over positive semirings: view trees over K
 * below the border, the Boolean full join of the root views along a join tree above it. Amortized
 * O(1) per insert, constant-delay enumeration (Thm. 1).
 *
 * @param forest the view trees (Algorithms 1 and 2) and routes
 * @param joinTree the Boolean join tree over the root views, by tree index
 * @param joinOrder the join tree's nodes in pre-order, root first
 */
@Internal
public record PHierarchicalPlan(
        ConjunctiveQuery query,
        String semiring,
        Set<SemiringProperty> semiringProperties,
        Classification classification,
        ViewTreeForest forest,
        List<JoinTreeNode> joinTree,
        List<Integer> joinOrder)
        implements ViewTreePlan {

    public PHierarchicalPlan {
        semiringProperties = PlanText.properties(semiringProperties);
        joinTree = List.copyOf(joinTree);
        joinOrder = List.copyOf(joinOrder);
        validate(query, forest, joinTree, joinOrder);
    }

    @Override
    public PlanKind kind() {
        return PlanKind.P_HIERARCHICAL;
    }

    @Override
    public double fhtw() {
        return 1;
    }

    @Override
    public void validate() {
        validate(query, forest, joinTree, joinOrder);
    }

    private static void validate(
            ConjunctiveQuery query, ViewTreeForest forest, List<JoinTreeNode> joinTree, List<Integer> joinOrder) {
        forest.validate(query.body().size());
        int trees = forest.trees().size();
        PlanText.check(joinTree.size() == trees, "one join-tree node per view tree");
        PlanText.check(joinOrder.size() == trees, "join order covers every tree");
        PlanText.check(
                !joinOrder.isEmpty() && joinTree.get(joinOrder.get(0)).parent() == -1, "join order starts at the root");
    }

    @Override
    public String guarantee() {
        return "amortized O(1) per insert and constant-delay enumeration (Thm. 1, fhtw = 1); " + PlanText.lookups(this);
    }

    @Override
    public String explain() {
        StringBuilder sb = PlanText.head(this);
        explainPlan(sb);
        return PlanText.tail(sb, this);
    }

    /** The plan's part of {@link #explain()}: from "Plan:" to the Boolean join tree. */
    void explainPlan(StringBuilder sb) {
        sb.append("Plan: p-hierarchical — view trees over ")
                .append(semiring)
                .append(" below the border, Boolean join of the root views above it\n");
        PlanText.explainBelowBorder(sb, this);
        sb.append("Boolean join tree (above the border):\n");
        for (int tree : joinOrder) {
            int depth = 0;
            for (int p = joinTree.get(tree).parent();
                    p >= 0;
                    p = joinTree.get(p).parent()) {
                depth++;
            }
            JoinTreeNode j = joinTree.get(tree);
            sb.append("  ")
                    .append("  ".repeat(depth))
                    .append(rootName(viewTrees().get(tree)));
            if (j.parent() >= 0) {
                sb.append(j.key().isEmpty() ? " × (cross product)" : " on " + String.join(",", j.key()));
            }
            sb.append('\n');
        }
    }

    @Override
    public String toMermaid() {
        return PlanText.mermaid(this, "Boolean join + payload recovery");
    }

    @Override
    public String toString() {
        return PlanText.toString(this);
    }
}
