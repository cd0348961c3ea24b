package io.flinkivm.core.plan;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.SemiringProperty;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** What the plan types share: their explain text's frame and view-tree part, Mermaid, checks. */
final class PlanText {
    private PlanText() {}

    /** A read-only copy of {@code properties} that keeps declaration order (and is serializable). */
    static Set<SemiringProperty> properties(Set<SemiringProperty> properties) {
        return Collections.unmodifiableSet(
                properties.isEmpty() ? EnumSet.noneOf(SemiringProperty.class) : EnumSet.copyOf(properties));
    }

    static void check(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("invalid maintenance plan: " + what);
        }
    }

    static String toString(MaintenancePlan plan) {
        return "MaintenancePlan[" + plan.kind() + ", " + plan.query() + ", " + plan.semiring() + "]";
    }

    /** The beginning of every explain text: query, semiring, classification. */
    static StringBuilder head(MaintenancePlan plan) {
        StringBuilder sb = new StringBuilder();
        sb.append("Query: ").append(plan.query()).append('\n');
        sb.append("Semiring: ")
                .append(plan.semiring())
                .append(" (")
                .append(propertyNames(plan.semiringProperties()))
                .append(")\n");
        sb.append("Classification:\n");
        for (String line : plan.classification().describe().split("\n")) {
            sb.append("  ").append(line).append('\n');
        }
        if (!plan.inputs().isInsertOnly()) {
            sb.append(plan.inputs().describe(plan.query())).append('\n');
        }
        if (!(plan instanceof KeyedPlan) && !plan.query().keys().isEmpty()) {
            List<String> keys = new ArrayList<>();
            for (ConjunctiveQuery.Key k : plan.query().keys()) {
                keys.add(plan.query().keyText(k));
            }
            sb.append("Keys: ")
                    .append(String.join(", ", keys))
                    .append(" (not relied on: the plan is exact on every database, and nothing checks them)\n");
        }
        return sb;
    }

    /** The end of every explain text: the guarantee. */
    static String tail(StringBuilder sb, MaintenancePlan plan) {
        return sb.append("Guarantee: ").append(plan.guarantee()).append('\n').toString();
    }

    private static String propertyNames(Set<SemiringProperty> properties) {
        List<String> names = new ArrayList<>();
        for (SemiringProperty p : properties) {
            names.add(p.name().toLowerCase(Locale.ROOT));
        }
        return names.isEmpty() ? "no declared properties" : String.join(", ", names);
    }

    static String rootName(ConjunctiveQuery query, ViewTree t) {
        if (t.isTrivial()) {
            return query.body().get(t.atoms().get(0)).toString();
        }
        return "V[" + String.join(",", t.schema()) + "]";
    }

    /** The second half of a view-tree plan's guarantee. */
    static String lookups(ViewTreePlan plan) {
        int trees = plan.viewTrees().size();
        return "payloads recovered by " + trees + " lookup" + (trees == 1 ? "" : "s") + " per result tuple";
    }

    /**
     * What MIN and MAX as value multisets add to a guarantee (a {@code ProductRing}'s components are
     * labelled {@code min-multiset}, ...): empty for every other semiring.
     */
    static String payloadCost(String semiring) {
        return semiring.contains("-multiset")
                ? "; MIN/MAX as multisets of values (as Flink SQL's retracting MIN/MAX): O(log n) more per value"
                        + " that enters or leaves a group of n values"
                : "";
    }

    /** The view trees, then the border, for the insert-only plans. */
    static void explainBelowBorder(StringBuilder sb, ViewTreePlan plan) {
        explainBelowBorder(sb, plan, "only a root tuple that is new crosses it");
    }

    /** The view trees, then the border, which does what {@code crossing} says. */
    static void explainBelowBorder(StringBuilder sb, ViewTreePlan plan, String crossing) {
        sb.append("View trees (below the border):\n");
        for (ViewTree t : plan.viewTrees()) {
            sb.append("  tree ").append(t.index()).append(": root view ").append(plan.rootName(t));
            if (t.isTrivial()) {
                sb.append(" (trivial: an atom over free variables)\n");
                continue;
            }
            sb.append('\n');
            explainNode(sb, plan, plan.viewNodes().get(t.rootNode()), 2);
        }
        sb.append("Border: ");
        List<String> indicators = new ArrayList<>();
        for (ViewTree t : plan.viewTrees()) {
            indicators.add("1[" + plan.rootName(t) + "]");
        }
        sb.append(String.join(", ", indicators))
                .append(" over boolean; ")
                .append(crossing)
                .append('\n');
    }

    private static void explainNode(StringBuilder sb, ViewTreePlan plan, ViewNode n, int depth) {
        String indent = "  ".repeat(depth);
        sb.append(indent).append("Σ ").append(n.variable()).append(": ");
        if (n.isStateful()) {
            sb.append("V[")
                    .append(String.join(",", n.schema()))
                    .append("] (join of ")
                    .append(n.arity())
                    .append(" children, keyed by ")
                    .append(String.join(",", n.schema()))
                    .append(")\n");
        } else {
            sb.append("projection to V[")
                    .append(String.join(",", n.projectionSchema()))
                    .append("] (no state)\n");
        }
        for (int a : n.atoms()) {
            Atom atom = plan.query().body().get(a);
            sb.append(indent).append("  ").append(atom).append('\n');
        }
        for (int c : n.children()) {
            explainNode(sb, plan, plan.viewNodes().get(c), depth + 1);
        }
    }

    /** A view-tree plan as a Mermaid flowchart, the atoms feeding the view trees, then the border and {@code sink}. */
    static String mermaid(ViewTreePlan plan, String sink) {
        StringBuilder sb = new StringBuilder("flowchart BT\n");
        for (Atom a : plan.query().body()) {
            Route r = plan.atomRoute(a.index());
            sb.append("  a")
                    .append(a.index())
                    .append("[\"")
                    .append(a)
                    .append("\"] --> ")
                    .append(r.toRoot() ? "t" + r.tree() : "n" + r.node())
                    .append('\n');
        }
        for (ViewNode n : plan.statefulNodes()) {
            Route r = plan.nodeRoute(n.id());
            sb.append("  n")
                    .append(n.id())
                    .append("[\"")
                    .append(n.displayName())
                    .append("\"] --> ")
                    .append(r.toRoot() ? "t" + r.tree() : "n" + r.node())
                    .append('\n');
        }
        for (ViewTree t : plan.viewTrees()) {
            sb.append("  t")
                    .append(t.index())
                    .append("[\"")
                    .append(plan.rootName(t))
                    .append("\"] -. border .-> sink\n");
        }
        sb.append("  sink[(\"").append(sink).append("\")]\n");
        return sb.toString();
    }
}
