package io.flinkivm.core.engine;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.semiring.Semiring;

/** Creates the in-memory engine for a plan. */
public final class Engines {
    private Engines() {
    }

    /** The engine for {@code plan}: the p-hierarchical engine (acyclic or cyclic) or the delta-join fallback. */
    public static <T> IvmEngine<T> create(MaintenancePlan plan, Semiring<T> semiring) {
        return switch (plan.kind()) {
            case P_HIERARCHICAL -> new PHierarchicalEngine<>(plan, semiring);
            case CYCLIC_P_HIERARCHICAL -> new CyclicPHierarchicalEngine<>(plan, semiring);
            case FALLBACK_DELTA_JOIN -> new DeltaJoinEngine<>(plan, semiring);
        };
    }

    /**
     * The same engine as {@link #create(MaintenancePlan, Semiring)}, counting its state operations
     * into {@code counts} (for benchmarks and tests).
     */
    public static <T> IvmEngine<T> create(MaintenancePlan plan, Semiring<T> semiring, StateCounts counts) {
        return switch (plan.kind()) {
            case P_HIERARCHICAL -> new PHierarchicalEngine<>(plan, semiring, counts);
            case CYCLIC_P_HIERARCHICAL -> new CyclicPHierarchicalEngine<>(plan, semiring, counts);
            case FALLBACK_DELTA_JOIN -> new DeltaJoinEngine<>(plan, semiring, counts);
        };
    }

    static void checkSemiring(MaintenancePlan plan, Semiring<?> semiring) {
        if (!plan.semiring().equals(semiring.name())) {
            throw new IllegalArgumentException("plan was made for semiring " + plan.semiring() + ", not "
                    + semiring.name());
        }
    }
}
