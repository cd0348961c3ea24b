package io.flinkivm.core.plan;

import io.flinkivm.core.analysis.Classification;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.SemiringProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;

/**
 * First-order delta joins over K with the result materialized: correct for every query and
 * semiring, but an insert (or, over a ring, a delete: the insert of the inverse payload) costs as much
 * as the number of tuples its delta join touches. A relation tuple or result tuple whose payload
 * returns to zero is removed.
 *
 * @param reasons why the paper's plan was not chosen
 * @param deltaJoins for each atom, the steps joining the other atoms to its delta
 * @param inputs which relations receive deletes and updates
 */
@Internal
public record FallbackPlan(
        ConjunctiveQuery query,
        String semiring,
        Set<SemiringProperty> semiringProperties,
        Classification classification,
        List<String> reasons,
        List<List<DeltaJoinStep>> deltaJoins,
        Inputs inputs)
        implements MaintenancePlan {

    public FallbackPlan {
        semiringProperties = PlanText.properties(semiringProperties);
        reasons = List.copyOf(reasons);
        List<List<DeltaJoinStep>> copy = new ArrayList<>();
        for (List<DeltaJoinStep> steps : deltaJoins) {
            copy.add(List.copyOf(steps));
        }
        deltaJoins = List.copyOf(copy);
        validate(query, deltaJoins);
    }

    @Override
    public PlanKind kind() {
        return PlanKind.FALLBACK_DELTA_JOIN;
    }

    @Override
    public void validate() {
        validate(query, deltaJoins);
    }

    private static void validate(ConjunctiveQuery query, List<List<DeltaJoinStep>> deltaJoins) {
        PlanText.check(deltaJoins.size() == query.body().size(), "one delta join per atom");
    }

    @Override
    public String guarantee() {
        if (inputs.isInsertOnly()) {
            return "an insert costs the number of tuples its delta join touches (up to the size of the database per"
                    + " insert); the result is materialized, so enumeration has constant delay"
                    + PlanText.payloadCost(semiring);
        }
        return "an insert or delete costs the number of tuples its delta join touches: at least the result tuples it"
                + " changes, O(result change), up to the size of the database; the result is materialized (a tuple"
                + " whose payload returns to zero is removed), so enumeration has constant delay"
                + PlanText.payloadCost(semiring);
    }

    @Override
    public String explain() {
        StringBuilder sb = PlanText.head(this);
        sb.append("Plan: fallback — first-order delta joins over ")
                .append(semiring)
                .append(", result materialized\n");
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
        return PlanText.tail(sb, this);
    }

    @Override
    public String toMermaid() {
        StringBuilder sb = new StringBuilder("flowchart BT\n");
        for (Atom a : query.body()) {
            sb.append("  a").append(a.index()).append("[\"").append(a).append("\"] --> result\n");
        }
        sb.append("  result[(\"materialized ").append(query.name()).append("\")]\n");
        return sb.toString();
    }

    @Override
    public String toString() {
        return PlanText.toString(this);
    }
}
