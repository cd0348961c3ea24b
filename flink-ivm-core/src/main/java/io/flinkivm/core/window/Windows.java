package io.flinkivm.core.window;

import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Variable;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The window assignments of a query's relations, at most one per relation (empty: no relation is
 * windowed). The atoms of a windowed relation have its rows' columns and then {@code window_start} and
 * {@code window_end}; a variable at an atom's {@code window_start} is a <em>window variable</em>, and
 * a view whose schema holds one is keyed by the window.
 */
@PublicEvolving
public record Windows(List<WindowAssignment> assignments) implements Serializable {

    /** No relation is windowed. */
    public static final Windows NONE = new Windows(List.of());

    public Windows {
        assignments = List.copyOf(assignments);
        for (int i = 0; i < assignments.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (assignments.get(i).relation().equals(assignments.get(j).relation())) {
                    throw new IllegalArgumentException(
                            "relation " + assignments.get(i).relation() + " has two window assignments");
                }
            }
        }
    }

    /** These assignments with {@code a}, which replaces an earlier one of its relation. */
    public Windows with(WindowAssignment a) {
        List<WindowAssignment> out = new ArrayList<>();
        for (WindowAssignment w : assignments) {
            if (!w.relation().equals(a.relation())) {
                out.add(w);
            }
        }
        out.add(a);
        return new Windows(out);
    }

    public boolean isEmpty() {
        return assignments.isEmpty();
    }

    /** The assignment of {@code relation}, or null. */
    public WindowAssignment of(String relation) {
        for (WindowAssignment w : assignments) {
            if (w.relation().equals(relation)) {
                return w;
            }
        }
        return null;
    }

    /**
     * Checks that every windowed relation is one of {@code query}'s and that its atoms have room for
     * the time column and the two window columns.
     *
     * @throws InvalidQueryException naming the relation and what is wrong
     */
    public void check(ConjunctiveQuery query) {
        for (WindowAssignment w : assignments) {
            if (!query.relations().contains(w.relation())) {
                throw new InvalidQueryException("a window is assigned to " + w.relation()
                        + ", which is not a relation of the query (its relations: "
                        + String.join(", ", query.relations()) + ")");
            }
            int arity = query.arityOf(w.relation());
            if (WindowAssignment.inputArity(arity) <= w.timeColumn()) {
                throw new InvalidQueryException(w.relation() + " is windowed on its column " + w.timeColumn()
                        + ", so its atoms need its rows' columns and then window_start and window_end (at least "
                        + (w.timeColumn() + 3) + " terms), but they have " + arity);
            }
        }
    }

    /** The variables at the {@code window_start} or {@code window_end} column of a windowed atom, in body order. */
    public Set<String> windowVariables(ConjunctiveQuery query) {
        Set<String> out = new LinkedHashSet<>();
        for (Atom a : query.body()) {
            if (of(a.relation()) == null) {
                continue;
            }
            for (int i = a.arity() - 2; i < a.arity(); i++) {
                Term t = a.terms().get(i);
                if (t instanceof Variable v) {
                    out.add(v.name());
                }
            }
        }
        return out;
    }

    /**
     * Whether {@code variable} closes with its windows in {@code query}: it occurs, and only at the
     * {@code window_start} or {@code window_end} column of windowed atoms whose time columns count in the
     * same units. State keyed by its value then receives nothing once those windows have closed.
     */
    public boolean isClosing(ConjunctiveQuery query, String variable) {
        long units = 0;
        for (Atom a : query.body()) {
            WindowAssignment w = of(a.relation());
            for (int i = 0; i < a.arity(); i++) {
                if (!(a.terms().get(i) instanceof Variable v) || !v.name().equals(variable)) {
                    continue;
                }
                if (w == null || i < a.arity() - 2 || (units != 0 && units != w.unitsPerMilli())) {
                    return false;
                }
                units = w.unitsPerMilli();
            }
        }
        return units != 0;
    }

    /**
     * The window variable that keys the operator holding {@code plan}'s result (the sink, or the
     * fallback) besides its other key: the first head variable that {@link #isClosing closes} and that
     * every part of the result has (every tree's root schema, or every atom of the fallback that holds a
     * head variable); null if none.
     */
    public String sinkVariable(MaintenancePlan plan) {
        MaintenancePlan inner = plan instanceof KeyedPlan k ? k.closed() : plan;
        ConjunctiveQuery query = inner.query();
        List<List<String>> parts = new ArrayList<>();
        if (inner instanceof ViewTreePlan trees) {
            for (ViewTree t : trees.viewTrees()) {
                parts.add(t.schema());
            }
        } else {
            for (Atom a : query.body()) {
                parts.add(a.variables());
            }
        }
        for (String v : query.head()) {
            if (isClosing(query, v) && parts.stream().allMatch(p -> p.contains(v))) {
                return v;
            }
        }
        return null;
    }

    /**
     * The section {@code Windows:} of {@code explain} (empty without windows): each windowed relation,
     * the late-row rule, and per view whether its state is collected by window (its operator is keyed
     * by a window variable), keyed by a window but kept, or grows with its tables.
     */
    public String explain(MaintenancePlan plan) {
        if (assignments.isEmpty()) {
            return "";
        }
        ConjunctiveQuery query = plan.query();
        StringBuilder sb = new StringBuilder("Windows:\n");
        for (WindowAssignment w : assignments) {
            sb.append("  ").append(w.describe(query.arityOf(w.relation()))).append('\n');
        }
        sb.append("  late rows: a row goes into its windows that are open (end - 1 ms + allowed lateness > its input's"
                + " watermark); a row whose windows all closed is a dead letter\n");
        Set<String> vars = windowVariables(query);
        sb.append("  window variables: ").append(vars.isEmpty() ? "none" : String.join(", ", vars));
        List<String> inHead = new ArrayList<>();
        for (String v : vars) {
            if (query.isFree(v)) {
                inHead.add(v);
            }
        }
        sb.append(inHead.isEmpty() ? " (none in the head)" : " (in the head: " + String.join(", ", inHead) + ")")
                .append('\n');
        MaintenancePlan inner = plan instanceof KeyedPlan k ? k.closed() : plan;
        String sink = sinkVariable(plan);
        boolean collected = false;
        if (inner instanceof ViewTreePlan trees) {
            for (ViewTree t : trees.viewTrees()) {
                collected |= view(sb, "root view " + trees.rootName(t) + " (in the sink)", t.schema(), vars, sink);
            }
            for (ViewNode n : trees.statefulNodes()) {
                view(
                        sb,
                        "view " + n.displayName(),
                        n.schema(),
                        vars,
                        closing(inner.query(), trees.viewTrees().get(n.tree()).schema()));
            }
        } else if (inner instanceof FallbackPlan) {
            for (Atom a : query.body()) {
                collected |= view(sb, "relation " + a, a.variables(), vars, sink);
            }
        }
        sb.append(
                collected
                        ? "  closed windows: a view collected by window drops a window's state whole when the watermark"
                                + " passes the window's end - 1 ms + allowed lateness, after its last change was emitted\n"
                        : "  closed windows: no operator is keyed by a window, so every view grows with its tables\n");
        return sb.toString();
    }

    /** The first variable of {@code key} that closes with its windows, or null. */
    private String closing(ConjunctiveQuery query, List<String> key) {
        for (String v : key) {
            if (isClosing(query, v)) {
                return v;
            }
        }
        return null;
    }

    /**
     * One view: collected by window when its operator's key holds the window variable {@code keyWindow};
     * else keyed by a window (its schema holds one) but kept; else growing with its tables. Returns
     * whether it is collected.
     */
    private static boolean view(
            StringBuilder sb, String name, List<String> schema, Set<String> vars, String keyWindow) {
        String by = null;
        for (String v : schema) {
            if (vars.contains(v)) {
                by = v;
                break;
            }
        }
        sb.append("  ").append(name).append(": ");
        if (keyWindow != null) {
            sb.append("collected by window (").append(keyWindow).append(") when the watermark passes its end");
        } else if (by != null) {
            sb.append("keyed by window (").append(by).append("), but kept: its operator's key holds no window");
        } else {
            sb.append("not keyed by a window, grows with its tables");
        }
        sb.append('\n');
        return keyWindow != null;
    }
}
