package io.flinkivm.core.plan;

import org.apache.flink.annotation.PublicEvolving;

/**
 * The kind of a {@link MaintenancePlan} as a label (explain, the command line, operator uids); each
 * kind has its own plan type.
 */
@PublicEvolving
public enum PlanKind {
    /**
     * The paper's plan for α-acyclic p-hierarchical queries over positive semirings: view trees over
     * K below the border, the Boolean full join of the root views above it. Amortized O(1) per
     * insert, constant-delay enumeration: {@link PHierarchicalPlan}.
     */
    P_HIERARCHICAL,
    /**
     * The paper's plan for p-hierarchical queries whose join of the root views is cyclic (Thm. 1
     * beyond α-acyclic): the same view trees over K below the border; above it, the bags of a
     * minimum-width tree decomposition of the root views' join, each maintained under inserts by a
     * worst-case-optimal delta join, and the α-acyclic Boolean join of the bags. Amortized
     * O(N^(fhtw-1)) per insert, constant-delay enumeration: {@link CyclicPHierarchicalPlan}.
     */
    CYCLIC_P_HIERARCHICAL,
    /**
     * The plan for q-hierarchical queries under inserts and deletes (Berkholz, Keppeler, Schweikardt,
     * PODS 2017), over a ring: the same view trees below the border; above it, the join of the
     * root views along the q-tree of the free variables, whose entries count their support, so that a
     * root tuple whose payload returns to zero leaves the join. O(1) per insert or delete,
     * constant-delay enumeration: {@link QHierarchicalPlan}.
     */
    Q_HIERARCHICAL,
    /**
     * First-order delta joins over K with the result materialized: correct for every query and
     * semiring, but an insert costs as much as the number of result tuples it touches: {@link FallbackPlan}.
     */
    FALLBACK_DELTA_JOIN
}
