package io.flinkivm.bench;

import java.time.Duration;

/** A system that is a Flink job: it runs at any parallelism, on the bench's MiniCluster ({@link FlinkRuns}). */
interface FlinkSystem extends SystemUnderTest {

    /** Runs the job once at {@code parallelism} (sources, the system's operators and the counting sinks alike). */
    RunResult run(Workload workload, InsertStream stream, Duration cap, int parallelism) throws Exception;

    /** At parallelism 1. */
    @Override
    default RunResult run(Workload workload, InsertStream stream, Duration cap) throws Exception {
        return run(workload, stream, cap, 1);
    }

    /** This system at {@code parallelism}, as the harness measures it: same name, labelled with P above 1. */
    default SystemUnderTest at(int parallelism) {
        FlinkSystem system = this;
        return new SystemUnderTest() {
            @Override
            public String name() {
                return system.name();
            }

            @Override
            public String label() {
                return parallelism == 1 ? system.name() : system.name() + " P=" + parallelism;
            }

            @Override
            public String describe(Workload workload) {
                return system.describe(workload);
            }

            @Override
            public boolean appliesTo(Workload workload) {
                return system.appliesTo(workload);
            }

            @Override
            public RunResult run(Workload workload, InsertStream stream, Duration cap) throws Exception {
                return system.run(workload, stream, cap, parallelism);
            }
        };
    }
}
