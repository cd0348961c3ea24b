package io.flinkivm.core.engine;

import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.QHierarchicalPlan;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/** Creates the in-memory engine for a plan. */
@PublicEvolving
public final class Engines {
    private Engines() {}

    /**
     * The engine for {@code plan}: the p-hierarchical engine (acyclic or cyclic), the q-hierarchical
     * engine, the delta-join fallback, or for a plan that relies on keys the key stages in front of its closed plan's engine.
     */
    public static <T> IvmEngine<T> create(MaintenancePlan plan, Semiring<T> semiring) {
        return create(plan, semiring, MemoryMaps.PLAIN, false);
    }

    /**
     * The same engine as {@link #create(MaintenancePlan, Semiring)}, counting its state operations
     * into {@code counts} (for benchmarks and tests).
     */
    public static <T> IvmEngine<T> create(MaintenancePlan plan, Semiring<T> semiring, StateCounts counts) {
        return create(plan, semiring, MemoryMaps.countingInto(Objects.requireNonNull(counts, "counts")), false);
    }

    /**
     * The same engine as {@link #create(MaintenancePlan, Semiring)}, keeping what
     * {@link IvmEngine#changes} needs: the result tuples whose payload changed since the previous call.
     */
    public static <T> IvmEngine<T> withChangelog(MaintenancePlan plan, Semiring<T> semiring) {
        return create(plan, semiring, MemoryMaps.PLAIN, true);
    }

    private static <T> IvmEngine<T> create(
            MaintenancePlan plan, Semiring<T> semiring, MemoryMaps maps, boolean changelog) {
        IvmEngine<T> engine = planEngine(plan, semiring, maps, changelog);
        if (plan.inputs().isInsertOnly()) {
            return engine;
        }
        if (!(semiring instanceof Ring<T> ring)) {
            throw new IllegalArgumentException(
                    "plan has deletes in " + String.join(", ", plan.inputs().changelog())
                            + ", which need a ring; semiring " + semiring.name() + " does not implement Ring");
        }
        return new ChangelogEngine<>(plan, ring, engine, maps);
    }

    private static <T> IvmEngine<T> planEngine(
            MaintenancePlan plan, Semiring<T> semiring, MemoryMaps maps, boolean changelog) {
        if (plan instanceof KeyedPlan k) {
            return new KeyedEngine<>(k, semiring, planEngine(k.closed(), semiring, maps, changelog));
        }
        if (plan instanceof QHierarchicalPlan q) {
            return new QHierarchicalEngine<>(q, semiring, maps, changelog);
        }
        if (plan instanceof ViewTreePlan p) {
            return new PHierarchicalEngine<>(p, semiring, maps, changelog);
        }
        return new DeltaJoinEngine<>((FallbackPlan) plan, semiring, maps, changelog);
    }
}
