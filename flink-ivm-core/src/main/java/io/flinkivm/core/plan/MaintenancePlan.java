package io.flinkivm.core.plan;

import io.flinkivm.core.analysis.Classification;
import io.flinkivm.core.analysis.EdgeCover;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.SemiringProperty;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How one query is maintained over one semiring: an immutable, serializable value produced by
 * {@link Planner}. For {@link PlanKind#P_HIERARCHICAL} it holds the view trees (Algorithms 1 and 2),
 * the routes of deltas between their stateful nodes, and the Boolean join tree over the root views;
 * for {@link PlanKind#CYCLIC_P_HIERARCHICAL} the same view trees and routes, and instead of the join
 * tree the bags of a minimum-width tree decomposition of the root views' join ({@link #bags()});
 * for {@link PlanKind#FALLBACK_DELTA_JOIN} the delta-join order of each atom.
 */
public final class MaintenancePlan implements Serializable {
    private static final long serialVersionUID = 1L;

    private final ConjunctiveQuery query;
    private final String semiring;
    private final Set<SemiringProperty> semiringProperties;
    private final Classification classification;
    private final PlanKind kind;
    private final List<String> reasons;
    private final List<ViewTree> viewTrees;
    private final List<ViewNode> viewNodes;
    private final List<Route> atomRoutes;
    private final List<Route> nodeRoutes;
    private final List<JoinTreeNode> joinTree;
    private final List<Integer> joinOrder;
    private final List<List<DeltaJoinStep>> deltaJoins;
    private final List<BagNode> bags;
    private final double fhtw;

    MaintenancePlan(ConjunctiveQuery query, String semiring, Set<SemiringProperty> semiringProperties,
            Classification classification, PlanKind kind, List<String> reasons, List<ViewTree> viewTrees,
            List<ViewNode> viewNodes, List<Route> atomRoutes, List<Route> nodeRoutes,
            List<JoinTreeNode> joinTree, List<Integer> joinOrder, List<List<DeltaJoinStep>> deltaJoins) {
        this(query, semiring, semiringProperties, classification, kind, reasons, viewTrees, viewNodes, atomRoutes,
                nodeRoutes, joinTree, joinOrder, deltaJoins, List.of(),
                kind == PlanKind.P_HIERARCHICAL ? 1 : Double.NaN);
    }

    MaintenancePlan(ConjunctiveQuery query, String semiring, Set<SemiringProperty> semiringProperties,
            Classification classification, PlanKind kind, List<String> reasons, List<ViewTree> viewTrees,
            List<ViewNode> viewNodes, List<Route> atomRoutes, List<Route> nodeRoutes,
            List<JoinTreeNode> joinTree, List<Integer> joinOrder, List<List<DeltaJoinStep>> deltaJoins,
            List<BagNode> bags, double fhtw) {
        this.query = query;
        this.semiring = semiring;
        this.semiringProperties = semiringProperties.isEmpty()
                ? EnumSet.noneOf(SemiringProperty.class) : EnumSet.copyOf(semiringProperties);
        this.classification = classification;
        this.kind = kind;
        this.reasons = List.copyOf(reasons);
        this.viewTrees = List.copyOf(viewTrees);
        this.viewNodes = List.copyOf(viewNodes);
        this.atomRoutes = List.copyOf(atomRoutes);
        this.nodeRoutes = List.copyOf(nodeRoutes);
        this.joinTree = List.copyOf(joinTree);
        this.joinOrder = List.copyOf(joinOrder);
        List<List<DeltaJoinStep>> dj = new ArrayList<>();
        for (List<DeltaJoinStep> steps : deltaJoins) {
            dj.add(List.copyOf(steps));
        }
        this.deltaJoins = List.copyOf(dj);
        this.bags = List.copyOf(bags);
        this.fhtw = fhtw;
        validate();
    }

    public ConjunctiveQuery query() {
        return query;
    }

    /** Name of the semiring the plan was made for. */
    public String semiring() {
        return semiring;
    }

    public Set<SemiringProperty> semiringProperties() {
        return EnumSet.copyOf(semiringProperties.isEmpty() ? EnumSet.noneOf(SemiringProperty.class) : semiringProperties);
    }

    public Classification classification() {
        return classification;
    }

    public PlanKind kind() {
        return kind;
    }

    /** Why this kind of plan was chosen (empty for the p-hierarchical plan). */
    public List<String> reasons() {
        return reasons;
    }

    /** The view trees (p-hierarchical plan only): bound-variable trees first, then trivial trees. */
    public List<ViewTree> viewTrees() {
        return viewTrees;
    }

    /** One node per bound variable, indexed by {@link ViewNode#id()}. */
    public List<ViewNode> viewNodes() {
        return viewNodes;
    }

    /** The stateful nodes, in id order: the ones that become keyed operators. */
    public List<ViewNode> statefulNodes() {
        List<ViewNode> out = new ArrayList<>();
        for (ViewNode n : viewNodes) {
            if (n.isStateful()) {
                out.add(n);
            }
        }
        return out;
    }

    /** Where a delta of atom i goes first (indexed by atom). */
    public Route atomRoute(int atom) {
        return atomRoutes.get(atom);
    }

    /** Where the projection delta of node {@code node} goes (indexed by node id). */
    public Route nodeRoute(int node) {
        return nodeRoutes.get(node);
    }

    /**
     * The bags of the tree decomposition above the border, in pre-order (cyclic plan only; empty
     * otherwise).
     */
    public List<BagNode> bags() {
        return bags;
    }

    /**
     * The fractional hypertree width of the join of the root views above the border: 1 for the
     * α-acyclic plan, the decomposition's width for the cyclic plan, NaN for the fallback. Its proof
     * of Thm. 1 shows it is at most fhtw of the Boolean version of the query.
     */
    public double fhtw() {
        return fhtw;
    }

    /** The Boolean join tree, indexed by tree index (α-acyclic plan only). */
    public List<JoinTreeNode> joinTree() {
        return joinTree;
    }

    /** The join tree's nodes in pre-order, root first. */
    public List<Integer> joinOrder() {
        return joinOrder;
    }

    /** For the fallback: for each atom, the steps joining the other atoms to its delta. */
    public List<List<DeltaJoinStep>> deltaJoins() {
        return deltaJoins;
    }

    /** Checks the plan's internal invariants; an exception here is a planner bug. */
    public void validate() {
        if (kind == PlanKind.P_HIERARCHICAL) {
            check(atomRoutes.size() == query.body().size(), "one route per atom");
            check(nodeRoutes.size() == viewNodes.size(), "one route per node");
            check(joinTree.size() == viewTrees.size(), "one join-tree node per view tree");
            check(joinOrder.size() == viewTrees.size(), "join order covers every tree");
            check(!joinOrder.isEmpty() && joinTree.get(joinOrder.get(0)).parent() == -1, "join order starts at the root");
            for (ViewNode n : viewNodes) {
                check(n.schema().get(n.schema().size() - 1).equals(n.variable()), "node schema ends with its variable");
            }
            for (int i = 0; i < viewTrees.size(); i++) {
                check(viewTrees.get(i).index() == i, "tree index");
            }
        } else if (kind == PlanKind.CYCLIC_P_HIERARCHICAL) {
            check(atomRoutes.size() == query.body().size(), "one route per atom");
            check(nodeRoutes.size() == viewNodes.size(), "one route per node");
            check(joinTree.isEmpty() && joinOrder.isEmpty(), "no join tree over the view trees");
            check(!bags.isEmpty(), "at least one bag");
            check(fhtw >= 1, "fhtw at least 1");
            double width = 0;
            for (int b = 0; b < bags.size(); b++) {
                BagNode bag = bags.get(b);
                check(bag.index() == b, "bag index");
                check(b == 0 ? bag.parent() == -1 : bag.parent() >= 0 && bag.parent() < b, "bags in pre-order");
                for (String v : bag.key()) {
                    check(bag.variables().contains(v) && bags.get(bag.parent()).variables().contains(v),
                            "bag key shared with the parent");
                }
                width = Math.max(width, bag.rho());
            }
            check(width == fhtw, "fhtw is the largest ρ* of a bag");
            for (ViewTree t : viewTrees) {
                boolean inBag = false;
                for (BagNode bag : bags) {
                    inBag |= bag.variables().containsAll(t.schema()) && bag.trees().contains(t.index());
                }
                check(inBag, "every root view lies in a bag that joins it");
            }
        } else {
            check(deltaJoins.size() == query.body().size(), "one delta join per atom");
        }
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("invalid maintenance plan: " + what);
        }
    }

    /** The guarantee of this plan, in one line. */
    public String guarantee() {
        String lookups = "payloads recovered by " + viewTrees.size() + " lookup" + (viewTrees.size() == 1 ? "" : "s")
                + " per result tuple";
        if (kind == PlanKind.P_HIERARCHICAL) {
            return "amortized O(1) per insert and constant-delay enumeration (Thm. 1, fhtw = 1); " + lookups;
        }
        if (kind == PlanKind.CYCLIC_P_HIERARCHICAL) {
            String exponent = EdgeCover.format(fhtw - 1);
            String cost = exponent.equals("1") ? "N" : exponent.contains("/") ? "N^(" + exponent + ")" : "N^" + exponent;
            return "amortized O(N^(fhtw-1)) = O(" + cost + ") per insert and constant-delay enumeration (Thm. 1, fhtw = "
                    + EdgeCover.format(fhtw) + "); " + lookups;
        }
        return "an insert costs the number of tuples its delta join touches (up to the size of the database per insert); "
                + "the result is materialized, so enumeration has constant delay";
    }

    /** A deterministic, human-readable description: classification, view trees, border, join tree, guarantee. */
    public String explain() {
        StringBuilder sb = new StringBuilder();
        sb.append("Query: ").append(query).append('\n');
        sb.append("Semiring: ").append(semiring).append(" (").append(properties()).append(")\n");
        sb.append("Classification:\n");
        for (String line : classification.describe().split("\n")) {
            sb.append("  ").append(line).append('\n');
        }
        if (kind == PlanKind.P_HIERARCHICAL) {
            explainViewTrees(sb);
        } else if (kind == PlanKind.CYCLIC_P_HIERARCHICAL) {
            explainBags(sb);
        } else {
            explainFallback(sb);
        }
        sb.append("Guarantee: ").append(guarantee()).append('\n');
        return sb.toString();
    }

    private String properties() {
        List<String> names = new ArrayList<>();
        for (SemiringProperty p : semiringProperties) {
            names.add(p.name().toLowerCase(Locale.ROOT));
        }
        return names.isEmpty() ? "no declared properties" : String.join(", ", names);
    }

    private void explainViewTrees(StringBuilder sb) {
        sb.append("Plan: p-hierarchical — view trees over ").append(semiring)
                .append(" below the border, Boolean join of the root views above it\n");
        explainBelowBorder(sb);
        sb.append("Boolean join tree (above the border):\n");
        for (int tree : joinOrder) {
            int depth = 0;
            for (int p = joinTree.get(tree).parent(); p >= 0; p = joinTree.get(p).parent()) {
                depth++;
            }
            JoinTreeNode j = joinTree.get(tree);
            sb.append("  ").append("  ".repeat(depth)).append(rootName(viewTrees.get(tree)));
            if (j.parent() >= 0) {
                sb.append(j.key().isEmpty() ? " × (cross product)" : " on " + String.join(",", j.key()));
            }
            sb.append('\n');
        }
    }

    private void explainBags(StringBuilder sb) {
        sb.append("Plan: cyclic p-hierarchical — view trees over ").append(semiring)
                .append(" below the border; above it, the bags of a tree decomposition of the root views' join,")
                .append(" each maintained by a worst-case-optimal delta join, and the Boolean join of the bags\n");
        explainBelowBorder(sb);
        sb.append("Tree decomposition of the root views' join (above the border, fhtw = ").append(EdgeCover.format(fhtw))
                .append("):\n");
        for (BagNode b : bags) {
            int depth = 0;
            for (int p = b.parent(); p >= 0; p = bags.get(p).parent()) {
                depth++;
            }
            sb.append("  ").append("  ".repeat(depth)).append("bag ").append(b.index()).append(" {")
                    .append(String.join(",", b.variables())).append("}: ρ* = ").append(EdgeCover.format(b.rho()));
            if (b.parent() >= 0) {
                sb.append(b.key().isEmpty() ? ", × (cross product)" : ", on " + String.join(",", b.key()));
            }
            List<String> members = new ArrayList<>();
            for (int t : b.trees()) {
                ViewTree tree = viewTrees.get(t);
                List<String> part = new ArrayList<>();
                for (String v : tree.schema()) {
                    if (b.variables().contains(v)) {
                        part.add(v);
                    }
                }
                members.add(part.size() == tree.schema().size() ? rootName(tree)
                        : "π[" + String.join(",", part) + "] " + rootName(tree));
            }
            sb.append(", joins ").append(String.join(", ", members)).append('\n');
        }
    }

    private void explainBelowBorder(StringBuilder sb) {
        sb.append("View trees (below the border):\n");
        for (ViewTree t : viewTrees) {
            sb.append("  tree ").append(t.index()).append(": root view ").append(rootName(t));
            if (t.isTrivial()) {
                sb.append(" (trivial: an atom over free variables)\n");
                continue;
            }
            sb.append('\n');
            explainNode(sb, viewNodes.get(t.rootNode()), 2);
        }
        sb.append("Border: ");
        List<String> indicators = new ArrayList<>();
        for (ViewTree t : viewTrees) {
            indicators.add("1[" + rootName(t) + "]");
        }
        sb.append(String.join(", ", indicators))
                .append(" over boolean; only a root tuple that is new crosses it\n");
    }

    /** How the plan names tree {@code t}'s root view: {@code V[A,C]}, or the atom of a trivial tree. */
    public String rootName(ViewTree t) {
        if (t.isTrivial()) {
            return query.body().get(t.atoms().get(0)).toString();
        }
        return "V[" + String.join(",", t.schema()) + "]";
    }

    private void explainNode(StringBuilder sb, ViewNode n, int depth) {
        String indent = "  ".repeat(depth);
        sb.append(indent).append("Σ ").append(n.variable()).append(": ");
        if (n.isStateful()) {
            sb.append("V[").append(String.join(",", n.schema())).append("] (join of ").append(n.arity())
                    .append(" children, keyed by ").append(String.join(",", n.schema())).append(")\n");
        } else {
            sb.append("projection to V[").append(String.join(",", n.projectionSchema())).append("] (no state)\n");
        }
        for (int a : n.atoms()) {
            Atom atom = query.body().get(a);
            sb.append(indent).append("  ").append(atom).append('\n');
        }
        for (int c : n.children()) {
            explainNode(sb, viewNodes.get(c), depth + 1);
        }
    }

    private void explainFallback(StringBuilder sb) {
        sb.append("Plan: fallback — first-order delta joins over ").append(semiring).append(", result materialized\n");
        sb.append("Why:\n");
        for (String r : reasons) {
            sb.append("  - ").append(r).append('\n');
        }
        sb.append("Delta joins:\n");
        for (int a = 0; a < deltaJoins.size(); a++) {
            sb.append("  δ").append(query.body().get(a));
            for (DeltaJoinStep s : deltaJoins.get(a)) {
                sb.append(" ⋈ ").append(query.body().get(s.atom()));
                sb.append(s.lookupKey().isEmpty() ? " (scan)" : " on " + String.join(",", s.lookupKey()));
            }
            sb.append('\n');
        }
    }

    /** The plan as a Mermaid flowchart (view trees bottom-up, the border, the Boolean join). */
    public String toMermaid() {
        StringBuilder sb = new StringBuilder("flowchart BT\n");
        if (kind == PlanKind.FALLBACK_DELTA_JOIN) {
            for (Atom a : query.body()) {
                sb.append("  a").append(a.index()).append("[\"").append(a).append("\"] --> result\n");
            }
            sb.append("  result[(\"materialized ").append(query.name()).append("\")]\n");
            return sb.toString();
        }
        for (Atom a : query.body()) {
            Route r = atomRoutes.get(a.index());
            sb.append("  a").append(a.index()).append("[\"").append(a).append("\"] --> ")
                    .append(r.toRoot() ? "t" + r.tree() : "n" + r.node()).append('\n');
        }
        for (ViewNode n : statefulNodes()) {
            Route r = nodeRoutes.get(n.id());
            sb.append("  n").append(n.id()).append("[\"").append(n.displayName()).append("\"] --> ")
                    .append(r.toRoot() ? "t" + r.tree() : "n" + r.node()).append('\n');
        }
        for (ViewTree t : viewTrees) {
            sb.append("  t").append(t.index()).append("[\"").append(rootName(t)).append("\"] -. border .-> sink\n");
        }
        sb.append(kind == PlanKind.CYCLIC_P_HIERARCHICAL
                ? "  sink[(\"" + bags.size() + (bags.size() == 1 ? " bag" : " bags") + ", fhtw = " + EdgeCover.format(fhtw)
                        + ", Boolean join of the bags + payload recovery\")]\n"
                : "  sink[(\"Boolean join + payload recovery\")]\n");
        return sb.toString();
    }

    @Override
    public String toString() {
        return "MaintenancePlan[" + kind + ", " + query + ", " + semiring + "]";
    }
}
