package io.flinkivm.examples.bench;

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
 */
record BenchSettings(boolean quick, long seed, int coreReps, int flinkReps, Duration coreCap, Duration flinkCap,
        List<Integer> sizes, List<Distribution> distributions, boolean warmUp, List<String> queries, List<String> systems) {

    BenchSettings(boolean quick, long seed, int coreReps, int flinkReps, Duration coreCap, Duration flinkCap,
            List<Integer> sizes, List<Distribution> distributions, boolean warmUp) {
        this(quick, seed, coreReps, flinkReps, coreCap, flinkCap, sizes, distributions, warmUp, null, null);
    }

    static final long DEFAULT_SEED = 42;

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
    }

    /** Whether the workload is selected ({@code --queries}). */
    boolean runs(Workload w) {
        return queries == null || queries.contains(w.name());
    }

    /** Whether the system is selected ({@code --systems}). */
    boolean runs(SystemUnderTest s) {
        return systems == null || systems.contains(s.name());
    }

    List<Integer> sizesOr(List<Integer> full, List<Integer> quickSizes) {
        return sizes != null ? sizes : quick ? quickSizes : full;
    }
}
