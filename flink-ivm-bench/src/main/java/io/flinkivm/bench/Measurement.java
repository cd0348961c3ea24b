package io.flinkivm.bench;

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
 *     inserts (a core engine's {@link io.flinkivm.core.engine.maps.StateCounts}; 1 for the hash-map peer's
 *     upsert); -1 if not counted
 * @param parallelism the Flink job's parallelism P (1 for the core engines, which run on one thread)
 * @param taskCpu the Flink job's task-thread CPU by subtask, of the run behind the figures (the median
 *     timed one, or the one stopped at the cap); {@link TaskCpu#NONE} for the core engines
 */
record Measurement(
        String query,
        String system,
        String distribution,
        int n,
        Bounded nsPerInsert,
        Bounded insertsPerSecond,
        Bounded cpuNsPerInsert,
        long stateSize,
        String stateUnit,
        double seconds,
        int runs,
        String note,
        String measure,
        double stateOpsPerInsert,
        int parallelism,
        TaskCpu taskCpu) {

    static final String INSERT = "insert";
    static final String ENUMERATE = "enumerate";
    /** The changelog suite's rows: a trigger's cost per changed tuple, or a snapshot's per result tuple. */
    static final String CHANGELOG = "changelog";

    Measurement(
            String query,
            String system,
            String distribution,
            int n,
            Bounded nsPerInsert,
            Bounded insertsPerSecond,
            Bounded cpuNsPerInsert,
            long stateSize,
            String stateUnit,
            double seconds,
            int runs,
            String note) {
        this(
                query,
                system,
                distribution,
                n,
                nsPerInsert,
                insertsPerSecond,
                cpuNsPerInsert,
                stateSize,
                stateUnit,
                seconds,
                runs,
                note,
                INSERT);
    }

    Measurement(
            String query,
            String system,
            String distribution,
            int n,
            Bounded nsPerInsert,
            Bounded insertsPerSecond,
            Bounded cpuNsPerInsert,
            long stateSize,
            String stateUnit,
            double seconds,
            int runs,
            String note,
            String measure) {
        this(
                query,
                system,
                distribution,
                n,
                nsPerInsert,
                insertsPerSecond,
                cpuNsPerInsert,
                stateSize,
                stateUnit,
                seconds,
                runs,
                note,
                measure,
                -1);
    }

    Measurement(
            String query,
            String system,
            String distribution,
            int n,
            Bounded nsPerInsert,
            Bounded insertsPerSecond,
            Bounded cpuNsPerInsert,
            long stateSize,
            String stateUnit,
            double seconds,
            int runs,
            String note,
            String measure,
            double stateOpsPerInsert) {
        this(
                query,
                system,
                distribution,
                n,
                nsPerInsert,
                insertsPerSecond,
                cpuNsPerInsert,
                stateSize,
                stateUnit,
                seconds,
                runs,
                note,
                measure,
                stateOpsPerInsert,
                1,
                TaskCpu.NONE);
    }

    boolean isInsert() {
        return measure.equals(INSERT);
    }

    Measurement withState(long size, String unit) {
        return new Measurement(
                query,
                system,
                distribution,
                n,
                nsPerInsert,
                insertsPerSecond,
                cpuNsPerInsert,
                size,
                unit,
                seconds,
                runs,
                note,
                measure,
                stateOpsPerInsert,
                parallelism,
                taskCpu);
    }

    Measurement withNote(String text) {
        return new Measurement(
                query,
                system,
                distribution,
                n,
                nsPerInsert,
                insertsPerSecond,
                cpuNsPerInsert,
                stateSize,
                stateUnit,
                seconds,
                runs,
                text,
                measure,
                stateOpsPerInsert,
                parallelism,
                taskCpu);
    }

    Measurement withStateOps(double perInsert) {
        return new Measurement(
                query,
                system,
                distribution,
                n,
                nsPerInsert,
                insertsPerSecond,
                cpuNsPerInsert,
                stateSize,
                stateUnit,
                seconds,
                runs,
                note,
                measure,
                perInsert,
                parallelism,
                taskCpu);
    }

    /** The same figures at {@code p} with the task CPU of {@code tasks}. */
    Measurement withParallelism(int p, TaskCpu tasks) {
        return new Measurement(
                query,
                system,
                distribution,
                n,
                nsPerInsert,
                insertsPerSecond,
                cpuNsPerInsert,
                stateSize,
                stateUnit,
                seconds,
                runs,
                note,
                measure,
                stateOpsPerInsert,
                p,
                tasks);
    }

    /** The same with {@code v} as ns per insert (the plot puts the value it draws there). */
    Measurement withNsPerInsert(Bounded v) {
        return new Measurement(
                query,
                system,
                distribution,
                n,
                v,
                insertsPerSecond,
                cpuNsPerInsert,
                stateSize,
                stateUnit,
                seconds,
                runs,
                note,
                measure,
                stateOpsPerInsert,
                parallelism,
                taskCpu);
    }
}
