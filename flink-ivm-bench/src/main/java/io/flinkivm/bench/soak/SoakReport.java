package io.flinkivm.bench.soak;

import io.flinkivm.bench.state.StateReport;
import java.util.List;
import java.util.Map;

/**
 * What a soak measured.
 *
 * @param inserts the stream's length
 * @param tenths throughput per tenth of the stream, in order
 * @param checkpoints the completed checkpoints seen, by id
 * @param failedCheckpoints failed checkpoints Flink counted
 * @param resultTuples size of the final result
 * @param deadLetters records the job rejected
 * @param matchesEngine whether the Flink result equals the in-memory engine's on the same stream
 * @param millis wall-clock time of the Flink job, submission to the last result
 * @param restarts the restores measured by restarting from a savepoint or checkpoint of the soak
 * @param state where the state was at the end (the last checkpoint by task; RocksDB's column families)
 */
public record SoakReport(
        long inserts,
        List<Tenth> tenths,
        List<Checkpoint> checkpoints,
        long failedCheckpoints,
        long resultTuples,
        long deadLetters,
        boolean matchesEngine,
        long millis,
        List<Restarts.Restart> restarts,
        StateReport state) {

    /**
     * One stretch of the stream between two progress marks.
     *
     * @param fromInserts inserts fully processed at its start
     * @param toInserts inserts fully processed at its end
     * @param fromMillis wall clock at its start (epoch milliseconds)
     * @param toMillis wall clock at its end
     * @param cpuNanos CPU time of the whole process (every Flink thread: tasks, RocksDB compaction,
     *     checkpoints, GC) in this stretch, or -1 if not known; unlike the throughput, it hardly depends
     *     on other processes' load
     * @param threadNanos CPU time in this stretch per thread group (see {@link io.flinkivm.bench.state.ThreadCpu}: task threads by
     *     operator, RocksDB compaction, GC, JIT, ...), empty if not known
     */
    public record Tenth(
            long fromInserts,
            long toInserts,
            long fromMillis,
            long toMillis,
            long cpuNanos,
            Map<String, Long> threadNanos) {
        public Tenth {
            threadNanos = Map.copyOf(threadNanos);
        }

        /** A stretch whose CPU time is not known. */
        public Tenth(long fromInserts, long toInserts, long fromMillis, long toMillis) {
            this(fromInserts, toInserts, fromMillis, toMillis, -1, Map.of());
        }

        /** CPU microseconds per insert in this stretch; NaN if not known. */
        public double cpuMicrosPerInsert() {
            return cpuNanos < 0 ? Double.NaN : cpuNanos / 1000.0 / inserts();
        }

        /**
         * CPU microseconds per insert of one thread group in this stretch: 0 for a group that did not run,
         * NaN if the per-thread times are not known.
         */
        public double threadMicrosPerInsert(String group) {
            return threadNanos.isEmpty() ? Double.NaN : threadNanos.getOrDefault(group, 0L) / 1000.0 / inserts();
        }

        /** Inserts per second in this stretch. */
        public double throughput() {
            return (toInserts - fromInserts) * 1000.0 / Math.max(1, toMillis - fromMillis);
        }

        private double inserts() {
            return Math.max(1, toInserts - fromInserts);
        }
    }

    /**
     * A completed checkpoint as Flink reports it.
     *
     * @param triggerMillis when it was triggered (epoch milliseconds)
     * @param durationMillis trigger to the last acknowledgement
     * @param stateSize the full size of the state it refers to, in bytes
     * @param checkpointedSize the bytes this checkpoint wrote (less than the full size when incremental)
     */
    public record Checkpoint(long id, long triggerMillis, long durationMillis, long stateSize, long checkpointedSize) {}

    /** The last tenth's CPU time per insert over the first's; NaN with fewer than two tenths or unknown CPU time. */
    public double cpuLastToFirst() {
        return tenths.size() < 2
                ? Double.NaN
                : tenths.get(tenths.size() - 1).cpuMicrosPerInsert()
                        / tenths.get(0).cpuMicrosPerInsert();
    }

    /** The last tenth's throughput over the first's; NaN with fewer than two tenths. */
    public double lastToFirst() {
        return tenths.size() < 2
                ? Double.NaN
                : tenths.get(tenths.size() - 1).throughput() / tenths.get(0).throughput();
    }
}
