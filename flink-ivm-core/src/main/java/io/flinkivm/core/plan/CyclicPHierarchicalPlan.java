package io.flinkivm.core.plan;

import io.flinkivm.core.analysis.Classification;
import io.flinkivm.core.analysis.EdgeCover;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.SemiringProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * The paper's plan for p-hierarchical queries whose join of the root views is cyclic (Thm. 1
 * beyond α-acyclic): the same view trees over K below the border; above it, the bags of a
 * minimum-width tree decomposition of the root views' join, each maintained under inserts by a
 * worst-case-optimal delta join, and the α-acyclic Boolean join of the bags. Amortized
 * O(N^(fhtw-1)) per insert, constant-delay enumeration.
 *
 * @param forest the view trees (Algorithms 1 and 2) and routes
 * @param bags the bags of the tree decomposition above the border, in pre-order
 * @param fhtw the decomposition's width: the largest ρ* of a bag
 */
@Internal
public record CyclicPHierarchicalPlan(
        ConjunctiveQuery query,
        String semiring,
        Set<SemiringProperty> semiringProperties,
        Classification classification,
        ViewTreeForest forest,
        List<BagNode> bags,
        double fhtw)
        implements ViewTreePlan {

    public CyclicPHierarchicalPlan {
        semiringProperties = PlanText.properties(semiringProperties);
        bags = List.copyOf(bags);
        validate(query, forest, bags, fhtw);
    }

    @Override
    public PlanKind kind() {
        return PlanKind.CYCLIC_P_HIERARCHICAL;
    }

    @Override
    public void validate() {
        validate(query, forest, bags, fhtw);
    }

    private static void validate(ConjunctiveQuery query, ViewTreeForest forest, List<BagNode> bags, double fhtw) {
        forest.validate(query.body().size());
        PlanText.check(!bags.isEmpty(), "at least one bag");
        PlanText.check(fhtw >= 1, "fhtw at least 1");
        double width = 0;
        for (int b = 0; b < bags.size(); b++) {
            BagNode bag = bags.get(b);
            PlanText.check(bag.index() == b, "bag index");
            PlanText.check(b == 0 ? bag.parent() == -1 : bag.parent() >= 0 && bag.parent() < b, "bags in pre-order");
            for (String v : bag.key()) {
                PlanText.check(
                        bag.variables().contains(v)
                                && bags.get(bag.parent()).variables().contains(v),
                        "bag key shared with the parent");
            }
            width = Math.max(width, bag.rho());
        }
        PlanText.check(width == fhtw, "fhtw is the largest ρ* of a bag");
        for (ViewTree t : forest.trees()) {
            boolean inBag = false;
            for (BagNode bag : bags) {
                inBag |= bag.variables().containsAll(t.schema()) && bag.trees().contains(t.index());
            }
            PlanText.check(inBag, "every root view lies in a bag that joins it");
        }
    }

    @Override
    public String guarantee() {
        String exponent = EdgeCover.format(fhtw - 1);
        String cost = exponent.equals("1") ? "N" : exponent.contains("/") ? "N^(" + exponent + ")" : "N^" + exponent;
        return "amortized O(N^(fhtw-1)) = O(" + cost + ") per insert and constant-delay enumeration (Thm. 1, fhtw = "
                + EdgeCover.format(fhtw) + "); " + PlanText.lookups(this);
    }

    @Override
    public String explain() {
        StringBuilder sb = PlanText.head(this);
        sb.append("Plan: cyclic p-hierarchical — view trees over ")
                .append(semiring)
                .append(" below the border; above it, the bags of a tree decomposition of the root views' join,")
                .append(" each maintained by a worst-case-optimal delta join, and the Boolean join of the bags\n");
        PlanText.explainBelowBorder(sb, this);
        sb.append("Tree decomposition of the root views' join (above the border, fhtw = ")
                .append(EdgeCover.format(fhtw))
                .append("):\n");
        for (BagNode b : bags) {
            int depth = 0;
            for (int p = b.parent(); p >= 0; p = bags.get(p).parent()) {
                depth++;
            }
            sb.append("  ")
                    .append("  ".repeat(depth))
                    .append("bag ")
                    .append(b.index())
                    .append(" {")
                    .append(String.join(",", b.variables()))
                    .append("}: ρ* = ")
                    .append(EdgeCover.format(b.rho()));
            if (b.parent() >= 0) {
                sb.append(b.key().isEmpty() ? ", × (cross product)" : ", on " + String.join(",", b.key()));
            }
            List<String> members = new ArrayList<>();
            for (int t : b.trees()) {
                ViewTree tree = viewTrees().get(t);
                List<String> part = new ArrayList<>();
                for (String v : tree.schema()) {
                    if (b.variables().contains(v)) {
                        part.add(v);
                    }
                }
                members.add(
                        part.size() == tree.schema().size()
                                ? rootName(tree)
                                : "π[" + String.join(",", part) + "] " + rootName(tree));
            }
            sb.append(", joins ").append(String.join(", ", members)).append('\n');
        }
        return PlanText.tail(sb, this);
    }

    @Override
    public String toMermaid() {
        return PlanText.mermaid(
                this,
                bags.size() + (bags.size() == 1 ? " bag" : " bags") + ", fhtw = " + EdgeCover.format(fhtw)
                        + ", Boolean join of the bags + payload recovery");
    }

    @Override
    public String toString() {
        return PlanText.toString(this);
    }
}
