package io.flinkivm.bench;

import java.util.List;

/** The bench's workloads, in the order they are run. */
final class Workloads {
    private Workloads() {}

    /** Ex. 10, TPC-H revenue, the q-hierarchical star and the non-p-hierarchical path. */
    static List<Workload> all() {
        return List.of(new Example10Workload(), new TpchWorkload(), new StarWorkload(), new PathWorkload());
    }
}
