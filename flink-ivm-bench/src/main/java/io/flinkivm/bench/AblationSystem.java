package io.flinkivm.bench;

import io.flinkivm.core.engine.AblationEngine;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.NaturalSemiring;

/**
 * {@code ablation}: the paper's ablation (Sec. 4.1), the p-hierarchical plan's view trees with the natural
 * numbers kept above the border ({@link AblationEngine}): what the Boolean border saves.
 */
final class AblationSystem extends CoreEngineSystem {

    AblationSystem(int maxSize) {
        super(maxSize);
    }

    @Override
    public String name() {
        return "ablation";
    }

    @Override
    public Role role() {
        return Role.ALTERNATIVE;
    }

    @Override
    public boolean appliesTo(Workload workload) {
        return isPHierarchical(workload);
    }

    @Override
    String what() {
        return "the same view trees, natural numbers above the border (first-order delta joins of the root views)";
    }

    @Override
    PHierarchicalPlan plan(Workload workload) {
        return (PHierarchicalPlan) Planner.plan(
                QueryParser.parse(workload.query()), NaturalSemiring.INSTANCE, Planner.Strategy.P_HIERARCHICAL);
    }

    @Override
    IvmEngine<Long> engine(MaintenancePlan plan, StateCounts counts) {
        PHierarchicalPlan p = (PHierarchicalPlan) plan;
        return counts == null
                ? new AblationEngine<>(p, NaturalSemiring.INSTANCE)
                : new AblationEngine<>(p, NaturalSemiring.INSTANCE, counts);
    }

    @Override
    public AblationSystem upTo(int n) {
        return new AblationSystem(n);
    }
}
