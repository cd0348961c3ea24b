package io.flinkivm.core.plan;

import io.flinkivm.core.analysis.Classification;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.SemiringProperty;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * The plan for q-hierarchical queries under inserts and deletes, over a ring: the view trees of the
 * p-hierarchical plan below the border, and above it the join of their root views
 * along the q-tree of the free variables ({@link #qTree()}), as Berkholz, Keppeler and Schweikardt
 * (PODS 2017) maintain q-hierarchical queries. The root schemas of a q-hierarchical query nest, so a
 * root tuple is one path of the q-tree; the join keeps per path entry a support count and, per child,
 * the list of the child's values that extend to a result. A root tuple crosses the border when its
 * payload turns non-zero and leaves it when the payload returns to zero (positivity is not needed),
 * and either changes O(depth) entries: O(1) per insert or delete, constant-delay enumeration.
 *
 * @param forest the view trees (Algorithms 1 and 2) and routes
 * @param qTree the q-tree above the border, root first, parents before children
 * @param inputs which relations receive deletes and updates
 */
@Internal
public record QHierarchicalPlan(
        ConjunctiveQuery query,
        String semiring,
        Set<SemiringProperty> semiringProperties,
        Classification classification,
        ViewTreeForest forest,
        List<QTreeNode> qTree,
        Inputs inputs)
        implements ViewTreePlan {

    public QHierarchicalPlan {
        semiringProperties = PlanText.properties(semiringProperties);
        qTree = List.copyOf(qTree);
        validate(query, forest, qTree);
    }

    @Override
    public PlanKind kind() {
        return PlanKind.Q_HIERARCHICAL;
    }

    @Override
    public double fhtw() {
        return 1;
    }

    /** The q-tree node at which the root view of tree {@code tree} sits. */
    public int nodeOf(int tree) {
        for (QTreeNode n : qTree) {
            if (n.trees().contains(tree)) {
                return n.id();
            }
        }
        throw new IllegalStateException("invalid maintenance plan: tree " + tree + " sits at no q-tree node");
    }

    @Override
    public void validate() {
        validate(query, forest, qTree);
    }

    private static void validate(ConjunctiveQuery query, ViewTreeForest forest, List<QTreeNode> qTree) {
        forest.validate(query.body().size());
        PlanText.check(!qTree.isEmpty() && qTree.get(0).variable() == null, "the q-tree starts at its root");
        Set<Integer> placed = new HashSet<>();
        for (QTreeNode n : qTree) {
            PlanText.check(n.id() >= 0 && n.id() < qTree.size() && qTree.get(n.id()) == n, "q-tree node ids");
            if (n.id() == 0) {
                PlanText.check(n.parent() == -1 && n.path().isEmpty(), "the q-tree's root has no variable");
            } else {
                PlanText.check(n.parent() >= 0 && n.parent() < n.id(), "q-tree parents come first");
                List<String> path = new ArrayList<>(qTree.get(n.parent()).path());
                path.add(n.variable());
                PlanText.check(path.equals(n.path()), "a q-tree node's path extends its parent's");
                PlanText.check(
                        qTree.get(n.parent()).children().contains(n.id()), "a q-tree node is its parent's child");
            }
            for (int t : n.trees()) {
                PlanText.check(placed.add(t), "a root view sits at one q-tree node");
                List<String> schema = forest.trees().get(t).schema();
                PlanText.check(
                        schema.size() == n.path().size() && n.path().containsAll(schema),
                        "a root view's schema is the path of its q-tree node");
            }
        }
        PlanText.check(placed.size() == forest.trees().size(), "every root view sits at a q-tree node");
    }

    @Override
    public String guarantee() {
        return "O(1) per insert or delete and constant-delay enumeration (q-hierarchical: Berkholz, Keppeler,"
                + " Schweikardt, PODS 2017); " + PlanText.lookups(this) + PlanText.payloadCost(semiring);
    }

    @Override
    public String explain() {
        StringBuilder sb = PlanText.head(this);
        explainPlan(sb);
        return PlanText.tail(sb, this);
    }

    /** The plan's part of {@link #explain()}: from "Plan:" to the q-tree. */
    void explainPlan(StringBuilder sb) {
        sb.append("Plan: q-hierarchical — view trees over ")
                .append(semiring)
                .append(" below the border, the q-tree join of the root views above it\n");
        PlanText.explainBelowBorder(
                sb,
                this,
                "a root tuple crosses it when its payload turns non-zero and leaves it when its payload returns to zero");
        sb.append("Q-tree (above the border; per entry a support count and, per child, the child's values that"
                + " extend to a result):\n");
        explainNode(sb, 0, 0);
    }

    private void explainNode(StringBuilder sb, int id, int depth) {
        QTreeNode n = qTree.get(id);
        List<String> views = new ArrayList<>();
        for (int t : n.trees()) {
            views.add(rootName(viewTrees().get(t)));
        }
        if (n.variable() != null || !views.isEmpty()) {
            sb.append("  ")
                    .append("  ".repeat(depth))
                    .append(n.variable() == null ? "(no variable)" : n.variable())
                    .append(views.isEmpty() ? "" : ": " + String.join(", ", views))
                    .append('\n');
        }
        for (int c : n.children()) {
            explainNode(sb, c, n.variable() == null ? depth : depth + 1);
        }
    }

    @Override
    public String toMermaid() {
        return PlanText.mermaid(this, "q-tree join + payload recovery");
    }

    @Override
    public String toString() {
        return PlanText.toString(this);
    }
}
