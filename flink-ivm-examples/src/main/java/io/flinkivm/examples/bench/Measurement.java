package io.flinkivm.examples.bench;

/**
 * One row of results.csv: a system's cost on one stream, the median over its timed runs, or a bound
 * if a run was stopped at the cap. An {@link #ENUMERATE} row is the rate of enumerating the result
 * after the stream: its "per insert" figures are per result tuple and its state is the result size.
 *
 * @param cpuNsPerInsert CPU time per insert ({@link CpuClock}), median over the runs
 * @param seconds median wall time of one run (for a capped run: when it was stopped)
 * @param runs timed runs
 * @param stateSize state at the end in {@code stateUnit}; -1 if not measured
 * @param note a remark for the printed table
 * @param measure {@link #INSERT} or {@link #ENUMERATE}
 * @param stateOpsPerInsert state operations per insert counted in a separate, untimed run over the same
 *     inserts (a core engine's {@link io.flinkivm.core.engine.StateCounts}; 1 for the hash-map peer's
 *     upsert); -1 if not counted
 */
record Measurement(String query, String system, String distribution, int n, Bounded nsPerInsert,
        Bounded insertsPerSecond, Bounded cpuNsPerInsert, long stateSize, String stateUnit, double seconds, int runs, String note,
        String measure, double stateOpsPerInsert) {

    static final String INSERT = "insert";
    static final String ENUMERATE = "enumerate";

    Measurement(String query, String system, String distribution, int n, Bounded nsPerInsert, Bounded insertsPerSecond,
            Bounded cpuNsPerInsert, long stateSize, String stateUnit, double seconds, int runs, String note) {
        this(query, system, distribution, n, nsPerInsert, insertsPerSecond, cpuNsPerInsert, stateSize, stateUnit, seconds, runs,
                note, INSERT);
    }

    Measurement(String query, String system, String distribution, int n, Bounded nsPerInsert, Bounded insertsPerSecond,
            Bounded cpuNsPerInsert, long stateSize, String stateUnit, double seconds, int runs, String note, String measure) {
        this(query, system, distribution, n, nsPerInsert, insertsPerSecond, cpuNsPerInsert, stateSize, stateUnit, seconds, runs,
                note, measure, -1);
    }

    boolean isInsert() {
        return measure.equals(INSERT);
    }

    Measurement withState(long size, String unit) {
        return new Measurement(query, system, distribution, n, nsPerInsert, insertsPerSecond, cpuNsPerInsert, size, unit,
                seconds, runs, note, measure, stateOpsPerInsert);
    }

    Measurement withNote(String text) {
        return new Measurement(query, system, distribution, n, nsPerInsert, insertsPerSecond, cpuNsPerInsert, stateSize,
                stateUnit, seconds, runs, text, measure, stateOpsPerInsert);
    }

    Measurement withStateOps(double perInsert) {
        return new Measurement(query, system, distribution, n, nsPerInsert, insertsPerSecond, cpuNsPerInsert, stateSize,
                stateUnit, seconds, runs, note, measure, perInsert);
    }
}
