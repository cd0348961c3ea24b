package io.flinkivm.bench;

import java.time.Duration;

/** Something that maintains a workload's query over an insert stream and can be timed doing so. */
interface SystemUnderTest {

    /** The {@code system} column of results.csv. */
    String name();

    /** The name in progress lines and skip notes ({@link FlinkSystem#at} adds the parallelism above 1). */
    default String label() {
        return name();
    }

    /** A one-line description for the printed report (what is timed, configuration). */
    String describe(Workload workload);

    /** Whether this system can maintain the workload's query (e.g. the p-hierarchical plan needs a p-hierarchical query). */
    default boolean appliesTo(Workload workload) {
        return true;
    }

    /** The largest stream this system is measured on (the core engine's p-hierarchical plan goes further). */
    default int maxSize() {
        return Integer.MAX_VALUE;
    }

    /**
     * Maintains {@code workload}'s query over {@code stream} once and reports the time of the measured
     * part; stops and reports an incomplete run when {@code cap} is exceeded.
     */
    RunResult run(Workload workload, InsertStream stream, Duration cap) throws Exception;
}
