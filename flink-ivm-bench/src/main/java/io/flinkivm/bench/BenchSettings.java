package io.flinkivm.bench;

import java.time.Duration;
import java.util.List;

/**
 * Settings of one bench run.
 *
 * @param quick the smaller sizes of each suite
 * @param sizes stream sizes that replace every suite's own (null: the suite's)
 * @param distributions the key distributions to measure, in order
 * @param warmUp whether to warm up before timing (off only in tests)
 * @param queries the workloads to run by name (null: all)
 * @param systems the systems to run by name (null: all)
 * @param countUpTo the largest n whose core runs are followed by a counting run (state operations per insert)
 * @param parallelisms the parallelisms every Flink system runs at, ascending, without repeats
 * @param sqlTriggerEvery the SQL datasets' flink-ivm views: a trigger after every this many rows of each
 *     ingest subtask (0: one trigger, at the end of the input)
 * @param objectReuse Flink's {@code pipeline.object-reuse} in every Flink job, flink-ivm's and its peers' alike
 */
record BenchSettings(
        boolean quick,
        long seed,
        int coreReps,
        int flinkReps,
        Duration coreCap,
        Duration flinkCap,
        List<Integer> sizes,
        List<Distribution> distributions,
        boolean warmUp,
        List<String> queries,
        List<String> systems,
        int countUpTo,
        List<Integer> parallelisms,
        long sqlTriggerEvery,
        boolean objectReuse) {

    BenchSettings(
            boolean quick,
            long seed,
            int coreReps,
            int flinkReps,
            Duration coreCap,
            Duration flinkCap,
            List<Integer> sizes,
            List<Distribution> distributions,
            boolean warmUp) {
        this(
                quick,
                seed,
                coreReps,
                flinkReps,
                coreCap,
                flinkCap,
                sizes,
                distributions,
                warmUp,
                null,
                null,
                DEFAULT_COUNT_UP_TO,
                List.of(1),
                0,
                false);
    }

    static final long DEFAULT_SEED = 42;
    /**
     * Counting runs up to 10^6 by default: the 100x from 10^4 that the flatness is judged on. At 10^7 a
     * counting run takes as long as the timed one (about 35 s per workload and distribution).
     */
    static final int DEFAULT_COUNT_UP_TO = 1_000_000;

    BenchSettings {
        if (coreReps < 1 || flinkReps < 1) {
            throw new IllegalArgumentException("repetitions must be >= 1");
        }
        sizes = sizes == null ? null : List.copyOf(sizes);
        distributions = List.copyOf(distributions);
        queries = queries == null ? null : List.copyOf(queries);
        systems = systems == null ? null : List.copyOf(systems);
        if (distributions.isEmpty()) {
            throw new IllegalArgumentException("at least one distribution is needed");
        }
        parallelisms = parallelisms.stream().distinct().sorted().toList();
        if (parallelisms.isEmpty() || parallelisms.get(0) < 1) {
            throw new IllegalArgumentException("parallelisms must be at least 1: " + parallelisms);
        }
        if (sqlTriggerEvery < 0) {
            throw new IllegalArgumentException("sqlTriggerEvery must be >= 0, got " + sqlTriggerEvery);
        }
    }

    /** These settings with Flink jobs at {@code ps}. */
    BenchSettings withParallelisms(List<Integer> ps) {
        return withFlinkJobs(ps, objectReuse);
    }

    /** These settings with Flink's object reuse {@code on} or off in every Flink job. */
    BenchSettings withObjectReuse(boolean on) {
        return withFlinkJobs(parallelisms, on);
    }

    private BenchSettings withFlinkJobs(List<Integer> ps, boolean reuse) {
        return new BenchSettings(
                quick,
                seed,
                coreReps,
                flinkReps,
                coreCap,
                flinkCap,
                sizes,
                distributions,
                warmUp,
                queries,
                systems,
                countUpTo,
                ps,
                sqlTriggerEvery,
                reuse);
    }

    /** The largest parallelism: the slots of the suite's cluster. */
    int maxParallelism() {
        return parallelisms.get(parallelisms.size() - 1);
    }

    /** Whether the workload is selected ({@code --queries}). */
    boolean runs(Workload w) {
        return runsQuery(w.name());
    }

    /** Whether the workload or SQL dataset named {@code query} is selected ({@code --queries}). */
    boolean runsQuery(String query) {
        return queries == null || queries.contains(query);
    }

    /** Whether the system is selected ({@code --systems}). */
    boolean runs(SystemUnderTest s) {
        return runsSystem(s.name());
    }

    /**
     * Whether the system named {@code system} is selected ({@code --systems}). The ForSt systems run only
     * when named: they measure an option, not a peer of the headline figures.
     */
    boolean runsSystem(String system) {
        return systems == null ? !system.endsWith("-forst") : systems.contains(system);
    }

    List<Integer> sizesOr(List<Integer> full, List<Integer> quickSizes) {
        return sizes != null ? sizes : quick ? quickSizes : full;
    }
}
