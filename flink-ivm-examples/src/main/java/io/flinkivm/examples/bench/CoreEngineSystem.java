package io.flinkivm.examples.bench;

import io.flinkivm.core.engine.DeltaJoinEngine;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.engine.PHierarchicalEngine;
import io.flinkivm.core.engine.ResultTuple;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.NaturalSemiring;
import java.time.Duration;
import java.util.Iterator;

/**
 * The in-memory engine of flink-ivm-core under one planner strategy: the p-hierarchical plan or the
 * fallback delta joins. Times only the insert loop over pre-built tuples (planning, engine creation and
 * the final enumeration are outside), in wall time and in this thread's CPU time plus GC time; the cap is checked every {@value #CAP_CHECK_EVERY} inserts.
 */
final class CoreEngineSystem implements SystemUnderTest {
    static final int CAP_CHECK_EVERY = 256;

    private final String name;
    private final Planner.Strategy strategy;

    private CoreEngineSystem(String name, Planner.Strategy strategy) {
        this.name = name;
        this.strategy = strategy;
    }

    static CoreEngineSystem pHierarchical() {
        return new CoreEngineSystem("p-hierarchical", Planner.Strategy.P_HIERARCHICAL);
    }

    static CoreEngineSystem fallback() {
        return new CoreEngineSystem("fallback", Planner.Strategy.FALLBACK);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String describe(Workload workload) {
        return name + ": core in-memory engine, plan " + strategy + "; insert loop timed, single thread";
    }

    MaintenancePlan plan(Workload workload) {
        return Planner.plan(QueryParser.parse(workload.query()), NaturalSemiring.INSTANCE, strategy);
    }

    @Override
    public RunResult run(Workload workload, InsertStream stream, Duration cap) {
        MaintenancePlan plan = plan(workload);
        IvmEngine<Long> engine = strategy == Planner.Strategy.FALLBACK
                ? new DeltaJoinEngine<>(plan, NaturalSemiring.INSTANCE)
                : new PHierarchicalEngine<>(plan, NaturalSemiring.INSTANCE);
        int n = stream.size();
        long cpuStart = CpuClock.threadAndGc();
        long start = System.nanoTime();
        long deadline = start + cap.toNanos();
        int i = 0;
        while (i < n) {
            int end = Math.min(n, i + CAP_CHECK_EVERY);
            for (; i < end; i++) {
                engine.insert(stream.relation(i), stream.tuple(i), stream.payload(i));
            }
            if (i < n && System.nanoTime() - deadline > 0) {
                long elapsed = System.nanoTime() - start;
                long cpu = CpuClock.between(cpuStart, CpuClock.threadAndGc());
                return new RunResult(elapsed, cpu, false, i, stateEntries(engine), "entries", -1, 0,
                        "stopped after " + i + " of " + n + " inserts");
            }
        }
        long elapsed = System.nanoTime() - start;
        long cpu = CpuClock.between(cpuStart, CpuClock.threadAndGc());
        long size = 0;
        long checksum = 0;
        for (Iterator<ResultTuple<Long>> it = engine.enumerate(); it.hasNext(); ) {
            checksum += it.next().payload();
            size++;
        }
        return new RunResult(elapsed, cpu, true, n, stateEntries(engine), "entries", size, checksum, "");
    }

    private static long stateEntries(IvmEngine<Long> engine) {
        if (engine instanceof PHierarchicalEngine<Long> p) {
            return p.stateEntries();
        }
        if (engine instanceof DeltaJoinEngine<Long> d) {
            return d.stateEntries();
        }
        return -1;
    }
}
