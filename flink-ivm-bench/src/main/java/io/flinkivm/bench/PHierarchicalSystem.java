package io.flinkivm.bench;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.NaturalSemiring;

/** {@code p-hierarchical}: the paper's plan (view trees, Boolean border, Boolean join) in the core engine. */
final class PHierarchicalSystem extends CoreEngineSystem {

    PHierarchicalSystem(int maxSize) {
        super(maxSize);
    }

    @Override
    public String name() {
        return "p-hierarchical";
    }

    @Override
    public Role role() {
        return Role.SUBJECT;
    }

    @Override
    public boolean appliesTo(Workload workload) {
        return isPHierarchical(workload);
    }

    @Override
    String what() {
        return "p-hierarchical plan, Boolean border";
    }

    @Override
    MaintenancePlan plan(Workload workload) {
        return Planner.plan(
                QueryParser.parse(workload.query()), NaturalSemiring.INSTANCE, Planner.Strategy.P_HIERARCHICAL);
    }

    @Override
    IvmEngine<Long> engine(MaintenancePlan plan, StateCounts counts) {
        return counts == null
                ? Engines.create(plan, NaturalSemiring.INSTANCE)
                : Engines.create(plan, NaturalSemiring.INSTANCE, counts);
    }

    @Override
    public PHierarchicalSystem upTo(int n) {
        return new PHierarchicalSystem(n);
    }
}
