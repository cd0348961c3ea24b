package io.flinkivm.examples.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * "Flink operators": inserts per second of the flink-ivm job (heap and RocksDB), the same query in Flink
 * SQL, and a forwarding-only job with as many keyBy hops, in one JVM over the same streams. Each
 * flink-ivm result is checked against the core engine's (size and payload sum), and so is Flink SQL's
 * when it finishes; a disagreement aborts the bench.
 */
final class FlinkSuite implements Suite {
    static final List<Integer> SIZES = List.of(100_000, 1_000_000);
    static final List<Integer> QUICK_SIZES = List.of(10_000, 100_000);
    static final int WARM_UP_SIZE = 10_000;
    /** The core engine's reference run is not expected to come near this. */
    static final Duration REFERENCE_CAP = Duration.ofMinutes(10);
    static final String CORE_STATE_UNIT = "entries (core engine)";

    private final Workload workload;
    private final List<SystemUnderTest> systems;

    FlinkSuite(Workload workload, List<SystemUnderTest> systems) {
        this.workload = workload;
        this.systems = List.copyOf(systems);
    }

    static FlinkSuite defaults() {
        return new FlinkSuite(new Example10Workload(), List.of(new FlinkIvmSystem("hashmap"), new FlinkIvmSystem("rocksdb"),
                new FlinkSqlSystem(), new TrivialKeyedSystem()));
    }

    @Override
    public String name() {
        return "flink";
    }

    @Override
    public List<Measurement> run(Harness harness, BenchSettings settings) throws Exception {
        PrintWriter out = harness.out();
        List<Integer> sizes = settings.sizesOr(SIZES, QUICK_SIZES);
        out.println("== suite flink (Flink operators): inserts per second, " + workload.name() + " " + workload.query());
        out.println("   stream: " + workload.describe(sizes.get(sizes.size() - 1)) + "; seed " + settings.seed());
        for (SystemUnderTest s : systems) {
            out.println("   " + s.describe(workload));
        }
        if (systems.stream().anyMatch(s -> s instanceof FlinkSqlSystem)) {
            out.println("   Flink SQL query: " + FlinkSqlSystem.sql(workload).replace("\n", " "));
        }
        out.println("   jobs run one at a time on one local MiniCluster (1 task manager, 1 slot) started once for the suite;"
                + " a job's time runs from building its stream graph to its result");
        out.println("   every system sees the same n at each size; each run is cancelled at " + settings.flinkCap().toSeconds()
                + " s and then reported as a bound (at most n/cap inserts/s); " + settings.flinkReps() + " timed run"
                + (settings.flinkReps() == 1 ? "" : "s (median)") + " per system and size"
                + (settings.warmUp() ? ", after one warm-up run per system (JIT, SQL planner)" : ""));
        out.flush();
        try {
            return measure(harness, settings, sizes);
        } finally {
            FlinkRuns.shutdown();
        }
    }

    private List<Measurement> measure(Harness harness, BenchSettings settings, List<Integer> sizes) throws Exception {
        PrintWriter out = harness.out();
        CoreEngineSystem reference = CoreEngineSystem.pHierarchical();
        if (settings.warmUp()) {
            InsertStream warm = workload.generate(Math.min(WARM_UP_SIZE, sizes.get(0)), Distribution.UNIFORM, settings.seed() + 1);
            for (SystemUnderTest s : systems) {
                harness.warmUp(s, workload, warm, Duration.ZERO, 1, settings.flinkCap());
            }
            RunResult overhead = new TrivialKeyedSystem().run(workload, workload.generate(1, Distribution.UNIFORM, 0),
                    settings.flinkCap());
            out.println("   fixed cost of one job on the running cluster (graphs, submission, scheduling, deployment, teardown),"
                    + " measured on a 1-insert job: " + Report.seconds(overhead.elapsedNanos() / 1e9)
                    + "; it is included in every figure below");
            out.flush();
        }
        List<Measurement> mine = new ArrayList<>();
        for (Distribution d : settings.distributions()) {
            for (int n : sizes) {
                InsertStream stream = workload.generate(n, d, settings.seed());
                RunResult expected = reference.run(workload, stream, REFERENCE_CAP);
                if (!expected.completed()) {
                    throw new BenchFailure("the core engine's reference run for " + d.label() + " n=" + n
                            + " did not finish within " + REFERENCE_CAP.toMinutes() + " minutes");
                }
                for (SystemUnderTest s : systems) {
                    Harness.Outcome o = harness.measure(s, workload, stream, settings.flinkReps(), settings.flinkCap());
                    Measurement m = o.measurement();
                    RunResult r = o.last();
                    if (r.completed() && r.resultSize() >= 0) {
                        if (r.resultSize() != expected.resultSize() || r.checksum() != expected.checksum()) {
                            throw new BenchFailure(s.name() + " on " + workload.name() + " " + d.label() + " n=" + n
                                    + " ends with " + r.resultSize() + " result tuples (payload sum " + r.checksum()
                                    + "), the core engine with " + expected.resultSize() + " (payload sum "
                                    + expected.checksum() + ")");
                        }
                        m = m.withNote((m.note().isEmpty() ? "" : m.note() + "; ") + "result = core ("
                                + r.resultSize() + " tuples)");
                    }
                    if (s instanceof FlinkIvmSystem) {
                        m = m.withState(expected.stateSize(), CORE_STATE_UNIT);
                    }
                    harness.record(m);
                    mine.add(m);
                }
            }
        }
        summary(out, mine);
        return mine;
    }

    private void summary(PrintWriter out, List<Measurement> ms) {
        out.println();
        out.println("Flink operators — " + workload.name() + ", inserts per second (wall time of the job on a running"
                + " local cluster, submission included; cpu: the process's CPU time, all threads); flink-ivm state: the core"
                + " engine's entry count for the same plan:");
        Report.table(out, ms);
        List<String> ivm = new ArrayList<>();
        List<String> peers = new ArrayList<>();
        for (SystemUnderTest s : systems) {
            (s instanceof FlinkIvmSystem ? ivm : peers).add(s.name());
        }
        for (String peer : peers) {
            for (String i : ivm) {
                Report.ratios(out, ms, i, peer, Report.Metric.INSERTS_PER_SECOND);
            }
        }
        out.println();
        out.flush();
    }
}
