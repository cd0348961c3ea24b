package io.flinkivm.bench;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.ResultTuple;
import java.util.Iterator;

/**
 * The reference result of a changelog stream: core's in-memory engine for the plan the Flink job runs
 * ({@link FlinkIvmSystem#plan}, over the integer ring), every change applied in order, its maps counting
 * the state operations (keys read or written, as {@code bench --suite core} counts them). Untimed.
 *
 * @param run the result: its size and payload sum, the engine's state entries
 * @param system what produced it, for the report
 * @param counts the state operations of the whole stream
 * @param changes the stream's changes ({@link InsertStream#changes()})
 */
record ChangelogReference(RunResult run, String system, StateCounts counts, int changes) {

    /** Applies every change of {@code stream} to a counting engine and enumerates the result. */
    static ChangelogReference of(Workload workload, InsertStream stream) {
        MaintenancePlan plan = FlinkIvmSystem.plan(workload);
        StateCounts counts = new StateCounts();
        IvmEngine<Long> engine = Engines.create(plan, FlinkIvmSystem.semiring(workload), counts);
        long start = System.nanoTime();
        for (int i = 0; i < stream.size(); i++) {
            engine.apply(stream.kind(i), stream.relation(i), stream.tuple(i), stream.payload(i));
        }
        long elapsed = System.nanoTime() - start;
        StateCounts applied = counts.snapshot();
        long size = 0;
        long checksum = 0;
        for (Iterator<ResultTuple<Long>> it = engine.enumerate(); it.hasNext(); ) {
            checksum += it.next().payload();
            size++;
        }
        RunResult r =
                new RunResult(elapsed, -1, true, stream.size(), engine.stateEntries(), "entries", size, checksum, "");
        return new ChangelogReference(
                r, "core " + plan.kind() + " engine over the integers", applied, stream.changes());
    }

    /** State operations per change (an update's two records count as one change). */
    double stateOpsPerChange() {
        return (double) counts.operations() / changes;
    }
}
