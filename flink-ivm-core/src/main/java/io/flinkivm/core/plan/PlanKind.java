package io.flinkivm.core.plan;

/** Which maintenance strategy a {@link MaintenancePlan} uses. */
public enum PlanKind {
    /**
     * The paper's plan for α-acyclic p-hierarchical queries over positive semirings: view trees over
     * K below the border, the Boolean full join of the root views above it. Amortized O(1) per
     * insert, constant-delay enumeration.
     */
    P_HIERARCHICAL,
    /**
     * First-order delta joins over K with the result materialized: correct for every query and
     * semiring, but an insert costs as much as the number of result tuples it touches.
     */
    FALLBACK_DELTA_JOIN
}
