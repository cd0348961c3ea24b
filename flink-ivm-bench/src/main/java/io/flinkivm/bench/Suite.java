package io.flinkivm.bench;

import java.util.ArrayList;
import java.util.List;

/** A group of measurements with its own sizes, systems and summary lines. */
interface Suite {

    /** The {@code --suite} value. */
    String name();

    /** Measures, records every measurement in {@code harness}, prints the summary; returns the measurements. */
    List<Measurement> run(Harness harness, BenchSettings settings) throws Exception;

    /** One workload's measurements; {@code warmUp} for the first workload that runs. */
    interface PerWorkload {
        List<Measurement> run(Workload workload, boolean warmUp) throws Exception;
    }

    /** The measurements of every workload that {@code settings} selects, in order; the first one warms up. */
    static List<Measurement> eachWorkload(List<Workload> workloads, BenchSettings settings, PerWorkload measure)
            throws Exception {
        List<Measurement> all = new ArrayList<>();
        boolean warm = false;
        for (Workload w : workloads) {
            if (!settings.runs(w)) {
                continue;
            }
            all.addAll(measure.run(w, !warm));
            warm = true;
        }
        return all;
    }
}
