package io.flinkivm.core.plan;

import io.flinkivm.core.query.ConjunctiveQuery;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import org.apache.flink.annotation.PublicEvolving;

/**
 * How the query's relations arrive, a planner input: each relation is insert-only, or a changelog whose
 * rows may also be deleted and updated (CDC, upsert streams, {@code -D}/{@code -U}/{@code +U} lines).
 * The plan for a changelog needs a {@link io.flinkivm.core.semiring.Ring} and may be another than the
 * insert-only one ({@link Planner#plan(ConjunctiveQuery, io.flinkivm.core.semiring.Semiring,
 * Planner.Strategy, Inputs)}); the plan keeps its inputs ({@link MaintenancePlan#inputs()}), and an
 * engine accepts deletes of its changelog relations only.
 *
 * @param changelog the relations whose rows may be deleted or updated, sorted, each once
 */
@PublicEvolving
public record Inputs(List<String> changelog) implements Serializable {
    /** Every relation insert-only (the default). */
    public static final Inputs INSERT_ONLY = new Inputs(List.of());

    public Inputs {
        changelog = List.copyOf(new TreeSet<>(changelog));
    }

    /** {@code relations} may receive deletes and updates; every other relation is insert-only. */
    public static Inputs changelog(Collection<String> relations) {
        return relations.isEmpty() ? INSERT_ONLY : new Inputs(new ArrayList<>(relations));
    }

    /** {@code relations} may receive deletes and updates; every other relation is insert-only. */
    public static Inputs changelog(String... relations) {
        return changelog(List.of(relations));
    }

    /** Whether no relation receives deletes or updates. */
    public boolean isInsertOnly() {
        return changelog.isEmpty();
    }

    /** Whether {@code relation} may receive deletes and updates. */
    public boolean hasDeletes(String relation) {
        return changelog.contains(relation);
    }

    /**
     * Checks that every changelog relation is one of {@code query}'s.
     *
     * @throws IllegalArgumentException naming the unknown relation and the query's
     */
    public void check(ConjunctiveQuery query) {
        for (String r : changelog) {
            if (!query.relations().contains(r)) {
                throw new IllegalArgumentException("changelog relation " + r + " is not a relation of " + query.name()
                        + "; it reads " + String.join(", ", query.relations()));
            }
        }
    }

    /** The explain line, e.g. "Inputs: R insert-only; S, T with deletes and updates". */
    String describe(ConjunctiveQuery query) {
        List<String> insertOnly = new ArrayList<>();
        for (String r : query.relations()) {
            if (!hasDeletes(r)) {
                insertOnly.add(r);
            }
        }
        List<String> parts = new ArrayList<>();
        if (!insertOnly.isEmpty()) {
            parts.add(String.join(", ", insertOnly) + " insert-only");
        }
        if (!changelog.isEmpty()) {
            parts.add(String.join(", ", changelog) + " with deletes and updates");
        }
        return "Inputs: " + String.join("; ", parts);
    }
}
