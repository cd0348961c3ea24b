package io.flinkivm.bench;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.NaturalSemiring;

/** {@code fallback}: first-order delta joins over the atoms, the plan for any query. */
final class FallbackSystem extends CoreEngineSystem {

    FallbackSystem(int maxSize) {
        super(maxSize);
    }

    @Override
    public String name() {
        return "fallback";
    }

    @Override
    public Role role() {
        return Role.ALTERNATIVE;
    }

    @Override
    String what() {
        return "fallback plan, first-order delta joins over the atoms";
    }

    @Override
    MaintenancePlan plan(Workload workload) {
        return Planner.plan(QueryParser.parse(workload.query()), NaturalSemiring.INSTANCE, Planner.Strategy.FALLBACK);
    }

    @Override
    IvmEngine<Long> engine(MaintenancePlan plan, StateCounts counts) {
        return counts == null
                ? Engines.create(plan, NaturalSemiring.INSTANCE)
                : Engines.create(plan, NaturalSemiring.INSTANCE, counts);
    }

    @Override
    public FallbackSystem upTo(int n) {
        return new FallbackSystem(n);
    }
}
