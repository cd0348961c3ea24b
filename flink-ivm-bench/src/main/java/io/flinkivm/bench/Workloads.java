package io.flinkivm.bench;

import java.util.List;

/** The bench's workloads, in the order they are run. */
final class Workloads {
    private Workloads() {}

    /** Ex. 10, TPC-H revenue, the q-hierarchical star and the non-p-hierarchical path. */
    static List<Workload> all() {
        return List.of(new Example10Workload(), new TpchWorkload(), new StarWorkload(), new PathWorkload());
    }

    /**
     * The changelog workloads of the Flink suite: the q-hierarchical star (O(1) per change over the
     * integer ring) and TPC-H revenue (p-hierarchical only: the fallback under deletes), each with 20 %
     * deletes and 20 % updates.
     */
    static List<Workload> changes() {
        return List.of(new ChangesWorkload(new StarWorkload()), new ChangesWorkload(new TpchWorkload()));
    }
}
