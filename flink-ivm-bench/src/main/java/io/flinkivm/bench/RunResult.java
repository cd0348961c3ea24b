package io.flinkivm.bench;

import io.flinkivm.bench.state.StateReport;

/**
 * One run of one system over one stream.
 *
 * @param elapsedNanos wall time of the measured part (for a capped run: until it was stopped)
 * @param cpuNanos CPU time of the measured part ({@link CpuClock}), -1 if unknown
 * @param completed false if the run was stopped at its time cap
 * @param processed inserts applied when the run ended (n if completed; -1 if unknown)
 * @param stateSize state at the end of the run in {@code stateUnit}, or -1 if not measured
 * @param stateUnit what {@code stateSize} counts
 * @param resultSize result tuples at the end, or -1 if not known
 * @param checksum the sum of the result's payloads (mod 2^64), meaningful when resultSize >= 0
 * @param note a short remark for the printed table (may be empty)
 * @param parallelism the Flink job's parallelism (1 for a core engine)
 * @param taskCpu the CPU of the Flink job's task threads ({@link TaskCpu#NONE} for a core engine)
 * @param state where a Flink job's state was at its end ({@link StateReport#NONE} if not measured)
 */
record RunResult(
        long elapsedNanos,
        long cpuNanos,
        boolean completed,
        long processed,
        long stateSize,
        String stateUnit,
        long resultSize,
        long checksum,
        String note,
        int parallelism,
        TaskCpu taskCpu,
        StateReport state) {

    /** A run on one thread, outside Flink. */
    RunResult(
            long elapsedNanos,
            long cpuNanos,
            boolean completed,
            long processed,
            long stateSize,
            String stateUnit,
            long resultSize,
            long checksum,
            String note) {
        this(
                elapsedNanos,
                cpuNanos,
                completed,
                processed,
                stateSize,
                stateUnit,
                resultSize,
                checksum,
                note,
                1,
                TaskCpu.NONE,
                StateReport.NONE);
    }

    static RunResult capped(long elapsedNanos, long cpuNanos, long processed, String note) {
        return new RunResult(elapsedNanos, cpuNanos, false, processed, -1, "", -1, 0, note);
    }
}
