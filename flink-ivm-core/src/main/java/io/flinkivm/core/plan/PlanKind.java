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
     * The paper's plan for p-hierarchical queries whose join of the root views is cyclic (Thm. 1
     * beyond α-acyclic): the same view trees over K below the border; above it, the bags of a
     * minimum-width tree decomposition of the root views' join, each maintained under inserts by a
     * worst-case-optimal delta join, and the α-acyclic Boolean join of the bags. Amortized
     * O(N^(fhtw-1)) per insert, constant-delay enumeration. Its {@link MaintenancePlan#joinTree()} is
     * empty; {@link MaintenancePlan#bags()} holds the decomposition.
     */
    CYCLIC_P_HIERARCHICAL,
    /**
     * First-order delta joins over K with the result materialized: correct for every query and
     * semiring, but an insert costs as much as the number of result tuples it touches.
     */
    FALLBACK_DELTA_JOIN
}
