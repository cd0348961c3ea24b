package io.flinkivm.examples.bench;

import java.time.Duration;

/** Something that maintains a workload's query over an insert stream and can be timed doing so. */
interface SystemUnderTest {

    /** The {@code system} column of results.csv. */
    String name();

    /** A one-line description for the printed report (what is timed, configuration). */
    String describe(Workload workload);

    /**
     * Maintains {@code workload}'s query over {@code stream} once and reports the time of the measured
     * part; stops and reports an incomplete run when {@code cap} is exceeded.
     */
    RunResult run(Workload workload, InsertStream stream, Duration cap) throws Exception;
}
