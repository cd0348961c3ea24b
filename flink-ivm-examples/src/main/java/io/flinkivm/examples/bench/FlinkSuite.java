package io.flinkivm.examples.bench;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * "Flink operators": inserts per second of the flink-ivm job (heap and RocksDB), the same query in Flink
 * SQL (plain, and with the multi-way join where the planner makes one), and a forwarding-only job with as
 * many keyBy hops, in one JVM over the same streams, for each workload. Every completed result is
 * checked against the core engine's on the same stream (size and payload sum); a disagreement aborts
 * the bench. flink-ivm jobs on a p-hierarchical query get {@value #IVM_CAP_FACTOR}× the cap of their peers:
 * they are what is measured, the peers are cut off and reported as bounds (on the other queries
 * flink-ivm runs the fallback and gets the peers' cap). A system stopped at its cap is not run at the
 * larger sizes of that workload and distribution ({@link CapSkips}).
 */
final class FlinkSuite implements Suite {
    static final List<Integer> SIZES = List.of(10_000, 100_000, 1_000_000);
    static final List<Integer> QUICK_SIZES = List.of(10_000, 50_000);
    /** Sizes for the second and later distributions of a workload (Zipf), to keep the suite in its time budget. */
    static final int OTHER_DISTRIBUTION_MAX = 100_000;
    static final int QUICK_OTHER_DISTRIBUTION_MAX = 10_000;
    static final int IVM_CAP_FACTOR = 2;
    static final int WARM_UP_SIZE = 10_000;
    /** The core engine's reference run, when the core suite has not produced one for the stream. */
    static final Duration REFERENCE_CAP = Duration.ofMinutes(1);
    static final String CORE_STATE_UNIT = "entries (core engine)";

    private final List<Workload> workloads;
    private final List<SystemUnderTest> systems;

    FlinkSuite(List<Workload> workloads, List<SystemUnderTest> systems) {
        this.workloads = List.copyOf(workloads);
        this.systems = List.copyOf(systems);
    }

    FlinkSuite(Workload workload, List<SystemUnderTest> systems) {
        this(List.of(workload), systems);
    }

    static FlinkSuite defaults() {
        return new FlinkSuite(Workloads.all(), List.of(new FlinkIvmSystem("hashmap"), new FlinkIvmSystem("rocksdb"),
                new FlinkSqlSystem(), new FlinkSqlSystem(true), FlinkSqlSystem.onRocksDb(), new TrivialKeyedSystem()));
    }

    @Override
    public String name() {
        return "flink";
    }

    @Override
    public List<Measurement> run(Harness harness, BenchSettings settings) throws Exception {
        try {
            return Suite.eachWorkload(workloads, settings, (w, warmUp) -> run(harness, settings, w, warmUp));
        } finally {
            FlinkRuns.shutdown();
        }
    }

    private List<Measurement> run(Harness harness, BenchSettings settings, Workload workload, boolean warmUp) throws Exception {
        PrintWriter out = harness.out();
        List<Integer> sizes = settings.sizesOr(SIZES, QUICK_SIZES);
        List<SystemUnderTest> mineSystems = systems.stream().filter(s -> settings.runs(s) && s.appliesTo(workload)).toList();
        if (mineSystems.isEmpty()) {
            return List.of();
        }
        out.println("== suite flink (Flink operators): inserts per second, " + workload.name() + " " + workload.query());
        out.println("   stream: " + workload.describe(sizes.get(sizes.size() - 1)) + "; seed " + settings.seed());
        for (SystemUnderTest s : systems) {
            if (!settings.runs(s)) {
                continue;
            }
            out.println("   " + (mineSystems.contains(s) ? s.describe(workload) : s.name() + ": does not apply (the optimized"
                    + " plan has no MultiJoin)"));
        }
        if (systems.stream().anyMatch(s -> s instanceof FlinkSqlSystem)) {
            out.println("   Flink SQL query: " + FlinkSqlSystem.sql(workload).replace("\n", " "));
        }
        out.println("   jobs run one at a time on one local MiniCluster (1 task manager, 1 slot) started once for the suite;"
                + " a job's time runs from building its stream graph to its result");
        out.println("   every system sees the same stream at each size; a run is cancelled at " + settings.flinkCap().toSeconds()
                + " s (flink-ivm on a p-hierarchical query: " + settings.flinkCap().multipliedBy(IVM_CAP_FACTOR).toSeconds()
                + " s) and then reported"
                + " as a bound; " + settings.flinkReps() + " timed run" + (settings.flinkReps() == 1 ? "" : "s (median)")
                + " per system and size" + (settings.warmUp() && warmUp ? ", after one warm-up run per system (JIT, SQL planner)" : ""));
        out.flush();
        if (settings.warmUp() && warmUp) {
            InsertStream warm = workload.generate(Math.min(WARM_UP_SIZE, sizes.get(0)),
                    workload.distributions(settings.distributions()).get(0), settings.seed() + 1);
            for (SystemUnderTest s : mineSystems) {
                harness.warmUp(s, workload, warm, Duration.ZERO, 1, settings.flinkCap());
            }
            RunResult overhead = new TrivialKeyedSystem().run(workload, workload.generate(1, warm.distribution(), 0),
                    settings.flinkCap());
            out.println("   fixed cost of one job on the running cluster (graphs, submission, scheduling, deployment, teardown),"
                    + " measured on a 1-insert job: " + Report.seconds(overhead.elapsedNanos() / 1e9)
                    + "; it is included in every figure below");
            out.flush();
        }
        List<Measurement> mine = new ArrayList<>();
        // On a query that is not p-hierarchical flink-ivm runs the fallback: a peer's plan, with a peer's cap.
        boolean subject = CoreEngineSystem.isPHierarchical(workload);
        List<Distribution> distributions = workload.distributions(settings.distributions());
        for (int di = 0; di < distributions.size(); di++) {
            Distribution d = distributions.get(di);
            int max = di == 0 || settings.sizes() != null ? Integer.MAX_VALUE
                    : settings.quick() ? QUICK_OTHER_DISTRIBUTION_MAX : OTHER_DISTRIBUTION_MAX;
            CapSkips skips = new CapSkips();
            for (int n : sizes) {
                if (n > max) {
                    continue;
                }
                InsertStream stream = workload.generate(n, d, settings.seed());
                Harness.Reference expected = reference(harness, workload, stream);
                for (SystemUnderTest s : mineSystems) {
                    if (skips.skips(s, workload, d, n, out)) {
                        continue;
                    }
                    Duration cap = s instanceof FlinkIvmSystem && subject ? settings.flinkCap().multipliedBy(IVM_CAP_FACTOR)
                            : settings.flinkCap();
                    Harness.Outcome o = harness.measure(s, workload, stream, settings.flinkReps(), cap);
                    skips.record(s, n, o.last());
                    Measurement m = o.measurement();
                    RunResult r = o.last();
                    Harness.Reference ref = harness.check(workload, stream, s.name(), r);
                    if (ref != null) {
                        m = m.withNote((m.note().isEmpty() ? "" : m.note() + "; ") + "result = " + ref.system() + " ("
                                + r.resultSize() + " tuples)");
                    } else if (r.completed() && r.resultSize() >= 0) {
                        m = m.withNote((m.note().isEmpty() ? "" : m.note() + "; ") + "result unchecked (no reference finished)");
                    }
                    if (s instanceof FlinkIvmSystem && m.stateSize() < 0 && expected != null && expected.stateEntries() >= 0) {
                        m = m.withState(expected.stateEntries(), CORE_STATE_UNIT + " " + expected.system());
                    }
                    harness.record(m);
                    mine.add(m);
                }
            }
        }
        summary(out, workload, mine, mineSystems);
        harness.plot();
        return mine;
    }

    /**
     * The core engine's result on the stream: the one the core suite recorded, else a run of the
     * p-hierarchical plan (the fallback for other queries); null if it does not finish in time.
     */
    private static Harness.Reference reference(Harness harness, Workload workload, InsertStream stream) {
        Harness.Reference known = harness.reference(workload, stream);
        if (known != null) {
            return known;
        }
        CoreEngineSystem core = CoreEngineSystem.isPHierarchical(workload) ? CoreEngineSystem.pHierarchical()
                : CoreEngineSystem.fallback();
        RunResult r = core.run(workload, stream, REFERENCE_CAP);
        if (!r.completed()) {
            return null;
        }
        harness.check(workload, stream, "core " + core.name(), r);
        return harness.reference(workload, stream);
    }

    private void summary(PrintWriter out, Workload workload, List<Measurement> ms, List<SystemUnderTest> mineSystems) {
        out.println();
        out.println("Flink operators — " + workload.name() + ", inserts per second (wall time of the job on a running"
                + " local cluster, submission included; cpu: the process's CPU time, all threads); flink-ivm state: bytes on"
                + " RocksDB, the core engine's entry count for the same plan on heap:");
        Report.table(out, ms);
        List<String> ivm = new ArrayList<>();
        List<String> peers = new ArrayList<>();
        for (SystemUnderTest s : mineSystems) {
            (s instanceof FlinkIvmSystem ? ivm : peers).add(s.name());
        }
        for (String peer : peers) {
            for (String i : ivm) {
                Report.ratios(out, ms, i, peer, Report.Metric.INSERTS_PER_SECOND);
            }
        }
        out.println("slope of ns per insert against n (log-log, smallest to largest n; 0 = flat, 1 = linear):");
        for (SystemUnderTest s : mineSystems) {
            Report.slope(out, ms, s.name());
        }
        out.println();
        out.flush();
    }
}
