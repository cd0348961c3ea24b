package io.flinkivm.bench;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;

/**
 * The systems stopped at their cap in one workload and distribution: they are not run at its larger
 * sizes. Such a run would take the whole cap again and could only report the weaker bound cap / n. A
 * Flink system counts once per parallelism ({@link SystemUnderTest#label}): stopped at P = 1, it still
 * runs at P = 2.
 */
final class CapSkips {
    private final Map<String, Integer> cappedAt = new HashMap<>();

    /** Whether {@code s} is not run at {@code n}; if so, prints why. */
    boolean skips(SystemUnderTest s, Workload w, Distribution d, int n, PrintWriter out) {
        return skips(s.label(), w.name() + " " + d.label(), n, out);
    }

    /** Whether the system labelled {@code label} is not run on {@code stream} at {@code n}; if so, prints why. */
    boolean skips(String label, String stream, int n, PrintWriter out) {
        Integer smaller = cappedAt.get(label);
        if (smaller == null) {
            return false;
        }
        out.println("  " + label + " " + stream + " n=" + n + ": not run, it was stopped at its cap at n=" + smaller);
        out.flush();
        return true;
    }

    /** Notes the run of {@code s} at {@code n}. */
    void record(SystemUnderTest s, int n, RunResult r) {
        record(s.label(), n, r);
    }

    /** Notes the run of the system labelled {@code label} at {@code n}. */
    void record(String label, int n, RunResult r) {
        if (!r.completed()) {
            cappedAt.putIfAbsent(label, n);
        }
    }
}
