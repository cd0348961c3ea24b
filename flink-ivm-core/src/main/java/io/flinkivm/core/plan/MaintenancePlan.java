package io.flinkivm.core.plan;

import io.flinkivm.core.analysis.Classification;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.SemiringProperty;
import java.io.Serializable;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * How one query is maintained over one semiring: an immutable, serializable value produced by
 * {@link Planner}, one type per kind of plan. A {@link ViewTreePlan} keeps view trees over the
 * semiring below the border (Algorithms 1 and 2) and joins their root views over the Boolean
 * semiring above it, along a join tree ({@link PHierarchicalPlan}) or along the bags of a tree
 * decomposition ({@link CyclicPHierarchicalPlan}), or along the q-tree of a q-hierarchical query under
 * inserts and deletes ({@link QHierarchicalPlan}); a {@link FallbackPlan} maintains every query by
 * first-order delta joins; a {@link KeyedPlan} maintains a query through its closure under its keys
 * and the key tables it absorbs (key stages in front of a {@link PHierarchicalPlan}, or under deletes a
 * {@link QHierarchicalPlan}, of the closed query). Runtimes tell them apart by
 * type ({@code instanceof}).
 */
@PublicEvolving
public sealed interface MaintenancePlan extends Serializable permits ViewTreePlan, FallbackPlan, KeyedPlan {

    /** The query as given: inserts go into its relations, results are over its head. */
    ConjunctiveQuery query();

    /** Name of the semiring the plan was made for. */
    String semiring();

    /** The semiring's declared properties (read-only, in declaration order). */
    Set<SemiringProperty> semiringProperties();

    Classification classification();

    /**
     * Which relations receive deletes and updates: all insert-only by default (the p-hierarchical plans
     * are for insert-only inputs); an engine accepts deletes of these relations only.
     */
    default Inputs inputs() {
        return Inputs.INSERT_ONLY;
    }

    /**
     * The plan's kind as a label, for printing and for the Flink job's operator uids; code tells
     * plans apart by type.
     */
    PlanKind kind();

    /**
     * This plan with key stages that check the keys it relies on only through the head's closure
     * ({@code true}; by default such keys are trusted, as Flink trusts {@code NOT ENFORCED}), or
     * without them. A plan that relies on no key is returned as it is.
     */
    default MaintenancePlan withKeyChecks(boolean checks) {
        return this;
    }

    /**
     * This plan where the relations in {@code tableOfRelation} take the rows of the tables it names (the
     * SQL front end's aliases of one table): a row that breaks the key of such a table is reported once.
     * A plan without key stages is returned as it is.
     */
    default MaintenancePlan withTables(Map<String, String> tableOfRelation) {
        return this;
    }

    /** Checks the plan's internal invariants; an exception here is a planner bug. */
    void validate();

    /** The guarantee of this plan, in one line. */
    String guarantee();

    /** A deterministic, human-readable description: classification, the plan, the guarantee. */
    String explain();

    /** The plan as a Mermaid flowchart. */
    String toMermaid();

    /**
     * Checks that a runtime got the semiring this plan was made for.
     *
     * @throws IllegalArgumentException if {@code semiring} is another one
     */
    default void checkSemiring(Semiring<?> semiring) {
        if (!semiring().equals(semiring.name())) {
            throw new IllegalArgumentException("plan was made for semiring " + semiring() + ", not " + semiring.name());
        }
    }
}
