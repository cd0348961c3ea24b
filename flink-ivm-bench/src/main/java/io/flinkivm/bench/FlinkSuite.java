package io.flinkivm.bench;

import io.flinkivm.core.plan.PlanKind;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * "Flink operators": inserts per second of the flink-ivm job (heap and RocksDB), the same query in Flink
 * SQL (plain, with mini-batch, with the multi-way join where the planner makes one, and on RocksDB), and
 * forwarding-only jobs with as many keyBy hops and with two, in one JVM over the same streams, for each
 * workload, each system at every parallelism of {@link BenchSettings#parallelisms} (its source,
 * operators and counting sinks alike, on one cluster with a slot per subtask of the largest). Beside
 * throughput and CPU per insert: the serial share of the task threads' CPU (chains at parallelism 1),
 * Amdahl's bound, and the most imbalanced chain ({@link TaskCpu}). Every completed result is
 * checked against the core engine's on the same stream (size and payload sum); a disagreement aborts
 * the bench. flink-ivm jobs on a p-hierarchical query get {@value #IVM_CAP_FACTOR}× the cap of their peers:
 * they are what is measured, the peers are cut off and reported as bounds (on the other queries
 * flink-ivm runs the fallback and gets the peers' cap). A system stopped at its cap is not run at the
 * larger sizes of that workload and distribution ({@link CapSkips}).
 */
final class FlinkSuite implements Suite {
    static final List<Integer> SIZES = List.of(10_000, 100_000, 1_000_000);
    /** {@code --quick}: one size, every system on every workload and dataset (a smoke check). */
    static final List<Integer> QUICK_SIZES = List.of(10_000);
    /** Sizes for the second and later distributions of a workload (Zipf), to keep the suite in its time budget. */
    static final int OTHER_DISTRIBUTION_MAX = 100_000;
    /** {@code --quick}: the first distribution only (the core suite covers Zipf keys). */
    static final int QUICK_OTHER_DISTRIBUTION_MAX = 0;

    static final int IVM_CAP_FACTOR = 2;
    static final int WARM_UP_SIZE = 10_000;
    /** {@code --quick}: warm-up runs on this many rows, a tenth of its timed runs' (the planner and the first compilations). */
    static final int QUICK_WARM_UP_SIZE = 1_000;
    /** The core engine's reference run, when the core suite has not produced one for the stream. */
    static final Duration REFERENCE_CAP = Duration.ofMinutes(1);

    static final String CORE_STATE_UNIT = "entries (core engine)";

    /**
     * The pairs of the "at the largest n" ratio lines: flink-ivm against the peer a user would pick
     * for the same job (Flink SQL, tuned or not, on the same backend) and against forwarding alone.
     */
    static final List<Headline> HEADLINE_RATIOS = List.of(
            new Headline("flink-ivm-heap", "flink-sql"),
            new Headline("flink-ivm-heap", "flink-sql-minibatch"),
            new Headline("flink-ivm-rocksdb", "flink-sql-rocksdb"),
            new Headline("flink-ivm-rocksdb", "flink-sql-minibatch-rocksdb"),
            new Headline("flink-ivm-heap", "trivial-keyed"),
            new Headline("flink-ivm-heap", "trivial-keyed-minimal"));

    /**
     * The pairs of the state lines: flink-ivm's RocksDB state (SST files after the final checkpoint's
     * flush, plus memtables) against Flink SQL's on the same backend, with and without the multi-way join.
     */
    static final List<Headline> STATE_RATIOS = List.of(
            new Headline("flink-ivm-rocksdb", "flink-sql-rocksdb"),
            new Headline("flink-ivm-rocksdb", "flink-sql-multijoin-rocksdb"));

    /** A ratio line: {@code subject}'s inserts per second over {@code peer}'s. */
    record Headline(String subject, String peer) {}

    private final List<Workload> workloads;
    private final List<FlinkSystem> systems;
    private final List<SqlDataset> datasets;
    private final List<SqlSystem> sqlSystems;

    FlinkSuite(
            List<Workload> workloads,
            List<? extends FlinkSystem> systems,
            List<SqlDataset> datasets,
            List<SqlSystem> sqlSystems) {
        this.workloads = List.copyOf(workloads);
        this.systems = List.copyOf(systems);
        this.datasets = List.copyOf(datasets);
        this.sqlSystems = List.copyOf(sqlSystems);
    }

    FlinkSuite(List<Workload> workloads, List<? extends FlinkSystem> systems) {
        this(workloads, systems, List.of(), List.of());
    }

    FlinkSuite(Workload workload, List<? extends FlinkSystem> systems) {
        this(List.of(workload), systems);
    }

    /** The SQL datasets only, each run by {@code sqlSystems}. */
    static FlinkSuite sql(List<SqlDataset> datasets, List<SqlSystem> sqlSystems) {
        return new FlinkSuite(List.of(), List.of(), datasets, sqlSystems);
    }

    static FlinkSuite defaults() {
        List<Workload> workloads = new ArrayList<>(Workloads.all());
        workloads.addAll(Workloads.changes());
        return new FlinkSuite(
                workloads,
                List.of(
                        new FlinkIvmSystem("hashmap"),
                        new FlinkIvmSystem("rocksdb"),
                        new FlinkIvmSystem("forst"),
                        new FlinkSqlSystem(),
                        FlinkSqlSystem.miniBatch(),
                        new FlinkSqlSystem(true),
                        FlinkSqlSystem.onRocksDb(),
                        FlinkSqlSystem.miniBatchOnRocksDb(),
                        FlinkSqlSystem.onForSt(),
                        FlinkSqlSystem.multiJoinOnRocksDb(),
                        new TrivialKeyedSystem(),
                        TrivialKeyedSystem.minimal()),
                SqlDatasets.all(),
                SqlSystem.all());
    }

    @Override
    public String name() {
        return "flink";
    }

    @Override
    public List<Measurement> run(Harness harness, BenchSettings settings) throws Exception {
        try {
            FlinkRuns.cluster(settings.maxParallelism());
            List<Measurement> all = new ArrayList<>(
                    Suite.eachWorkload(workloads, settings, (w, warmUp) -> run(harness, settings, w, warmUp)));
            boolean warmUp = true;
            for (SqlDataset d : datasets) {
                if (settings.runsQuery(d.name())) {
                    all.addAll(SqlRuns.run(harness, settings, d, sqlSystems, warmUp));
                    warmUp = false;
                }
            }
            return all;
        } finally {
            RelationTables.release();
            FlinkRuns.shutdown();
        }
    }

    private List<Measurement> run(Harness harness, BenchSettings settings, Workload workload, boolean warmUp)
            throws Exception {
        PrintWriter out = harness.out();
        List<Integer> sizes = settings.sizesOr(SIZES, QUICK_SIZES);
        List<Integer> ps = settings.parallelisms();
        List<FlinkSystem> mineSystems = systems.stream()
                .filter(s -> settings.runs(s) && s.appliesTo(workload))
                .toList();
        if (mineSystems.isEmpty()) {
            return List.of();
        }
        out.println(
                "== suite flink (Flink operators): inserts per second, " + workload.name() + " " + workload.query());
        out.println("   stream: " + workload.describe(sizes.get(sizes.size() - 1)) + "; seed " + settings.seed());
        for (FlinkSystem s : systems) {
            if (!settings.runs(s)) {
                continue;
            }
            out.println("   "
                    + (mineSystems.contains(s)
                            ? s.describe(workload)
                            : s.name() + ": does not apply (the optimized" + " plan has no MultiJoin)"));
        }
        if (systems.stream().anyMatch(s -> s instanceof FlinkSqlSystem)) {
            out.println("   Flink SQL query: " + FlinkSqlSystem.sql(workload).replace("\n", " "));
        }
        printJobs(out, settings);
        out.println("   every system sees the same stream at each size; a run is cancelled at "
                + settings.flinkCap().toSeconds()
                + " s (flink-ivm on a p-hierarchical query: "
                + settings.flinkCap().multipliedBy(IVM_CAP_FACTOR).toSeconds()
                + " s) and then reported"
                + " as a bound; " + settings.flinkReps() + " timed run"
                + (settings.flinkReps() == 1 ? "" : "s (median)")
                + " per system, P and size"
                + (settings.warmUp() && warmUp
                        ? ", after one warm-up run per system and P (JIT," + " SQL planner)"
                        : ""));
        out.flush();
        if (settings.warmUp() && warmUp) {
            InsertStream warm = workload.generate(
                    warmUpSize(settings, sizes),
                    workload.distributions(settings.distributions()).get(0),
                    settings.seed() + 1);
            for (FlinkSystem s : mineSystems) {
                for (int p : ps) {
                    harness.warmUp(s.at(p), workload, warm, Duration.ZERO, 1, settings.flinkCap());
                }
            }
            List<String> costs = new ArrayList<>();
            for (int p : ps) {
                RunResult overhead = new TrivialKeyedSystem()
                        .run(workload, workload.generate(1, warm.distribution(), 0), settings.flinkCap(), p);
                costs.add((ps.size() == 1 ? "" : "P=" + p + " ") + Report.seconds(overhead.elapsedNanos() / 1e9));
            }
            out.println(
                    "   fixed cost of one job on the running cluster (graphs, submission, scheduling, deployment, teardown),"
                            + " measured on a 1-insert job: " + String.join(", ", costs)
                            + "; it is included in every figure below");
            out.flush();
        }
        List<Measurement> mine = new ArrayList<>();
        // On a query that is not p-hierarchical flink-ivm runs the fallback: a peer's plan, with a peer's cap.
        boolean subject = workload.hasDeletes()
                ? FlinkIvmSystem.plan(workload).kind() != PlanKind.FALLBACK_DELTA_JOIN
                : CoreEngineSystem.isPHierarchical(workload);
        List<Distribution> distributions = workload.distributions(settings.distributions());
        for (int di = 0; di < distributions.size(); di++) {
            Distribution d = distributions.get(di);
            int max = di == 0 || settings.sizes() != null
                    ? Integer.MAX_VALUE
                    : settings.quick() ? QUICK_OTHER_DISTRIBUTION_MAX : OTHER_DISTRIBUTION_MAX;
            CapSkips skips = new CapSkips();
            for (int n : sizes) {
                if (n > max) {
                    continue;
                }
                InsertStream stream = workload.generate(n, d, settings.seed());
                // Every system's input records, built once and before the timed runs (and their collection).
                stream.inputRecords();
                if (mineSystems.stream().anyMatch(s -> s instanceof FlinkSqlSystem)) {
                    RelationTables.of(workload, stream);
                }
                double stateOps = -1;
                if (workload.hasDeletes()) {
                    ChangelogReference c = ChangelogReference.of(workload, stream);
                    harness.check(workload, stream, c.system(), c.run());
                    stateOps = c.stateOpsPerChange();
                    out.printf(
                            Locale.ROOT,
                            "  %s n=%d: %d records, %d result tuples, %.2f state operations per change (%s)%n",
                            c.system(),
                            n,
                            stream.size(),
                            c.run().resultSize(),
                            stateOps,
                            c.counts());
                }
                Harness.Reference expected = reference(harness, workload, stream);
                for (FlinkSystem system : mineSystems) {
                    for (int p : ps) {
                        SystemUnderTest s = system.at(p);
                        if (skips.skips(s, workload, d, n, out)) {
                            continue;
                        }
                        Duration cap = system instanceof FlinkIvmSystem && subject
                                ? settings.flinkCap().multipliedBy(IVM_CAP_FACTOR)
                                : settings.flinkCap();
                        Harness.Outcome o = harness.measure(s, workload, stream, settings.flinkReps(), null, cap);
                        skips.record(s, n, o.last());
                        Measurement m = o.measurement();
                        RunResult r = o.last();
                        Harness.Reference ref = harness.check(workload, stream, s.label(), r);
                        if (ref != null) {
                            m = m.withNote((m.note().isEmpty() ? "" : m.note() + "; ") + "result = " + ref.system()
                                    + " (" + r.resultSize() + " tuples)");
                        } else if (r.completed() && r.resultSize() >= 0) {
                            m = m.withNote((m.note().isEmpty() ? "" : m.note() + "; ")
                                    + "result unchecked (no reference finished)");
                        }
                        if (system instanceof FlinkIvmSystem && stateOps >= 0) {
                            m = m.withStateOps(stateOps);
                        }
                        if (system instanceof FlinkIvmSystem
                                && m.stateSize() < 0
                                && expected != null
                                && expected.stateEntries() >= 0) {
                            m = m.withState(expected.stateEntries(), CORE_STATE_UNIT + " " + expected.system());
                        }
                        harness.record(m);
                        harness.recordState(m, r.state());
                        mine.add(m);
                    }
                }
                // --quick counts the state calls of the first workload only: a smoke check of the table.
                if (n == sizes.get(sizes.size() - 1) && n <= settings.countUpTo() && (!settings.quick() || warmUp)) {
                    stateCalls(out, workload, stream, mineSystems, ps.get(0), mine, settings);
                }
            }
        }
        List<String> ivm = new ArrayList<>();
        List<String> peers = new ArrayList<>();
        for (FlinkSystem s : mineSystems) {
            (s instanceof FlinkIvmSystem ? ivm : peers).add(s.name());
        }
        summary(out, workload.name(), mine, ivm, peers, ps);
        harness.plot();
        return mine;
    }

    /** The rows of a warm-up run: {@value #WARM_UP_SIZE} at most, {@value #QUICK_WARM_UP_SIZE} with {@code --quick}. */
    static int warmUpSize(BenchSettings settings, List<Integer> sizes) {
        return Math.min(settings.quick() && settings.sizes() == null ? QUICK_WARM_UP_SIZE : WARM_UP_SIZE, sizes.get(0));
    }

    /**
     * The keyed state calls per insert of each RocksDB system at parallelism {@code p} whose timed run
     * completed, from one more run over the same stream with Flink's tracking of every state access
     * (untimed: the tracking costs time; the cluster restarts with it once for all of them), by operator
     * and state, with the timed run's task CPU beside them.
     */
    private static void stateCalls(
            PrintWriter out,
            Workload workload,
            InsertStream stream,
            List<FlinkSystem> systems,
            int p,
            List<Measurement> timed,
            BenchSettings settings)
            throws Exception {
        List<Report.StateCallRun> runs = new ArrayList<>();
        List<FlinkSystem> tracked = new ArrayList<>();
        for (FlinkSystem s : systems) {
            Measurement m = timedAt(timed, s, p, stream);
            if (s.name().endsWith("rocksdb") && m != null && m.nsPerInsert().isExact()) {
                tracked.add(s);
            }
        }
        if (tracked.isEmpty()) {
            return;
        }
        FlinkRuns.trackStateCalls(true);
        try {
            for (FlinkSystem s : tracked) {
                RunResult r = s.run(workload, stream, settings.flinkCap().multipliedBy(IVM_CAP_FACTOR), p);
                if (r.completed()) {
                    runs.add(new Report.StateCallRun(
                            s.name(), FlinkRuns.lastStateCalls(), timedAt(timed, s, p, stream)));
                }
            }
        } finally {
            FlinkRuns.trackStateCalls(false);
        }
        if (!runs.isEmpty()) {
            Report.stateCallTable(out, workload.name(), stream.changes(), p, runs);
        }
    }

    /** The timed measurement of {@code s} at {@code p} on {@code stream}, or null if it did not run. */
    private static Measurement timedAt(List<Measurement> timed, FlinkSystem s, int p, InsertStream stream) {
        return timed.stream()
                .filter(t -> t.system().equals(s.name()) && t.parallelism() == p && t.n() == stream.changes())
                .findFirst()
                .orElse(null);
    }

    /** The lines on how jobs run: one at a time on the suite's cluster, each system at each P. */
    static void printJobs(PrintWriter out, BenchSettings settings) {
        int slots = settings.maxParallelism();
        out.println("   jobs run one at a time on one local MiniCluster (1 task manager, " + slots + " slot"
                + (slots == 1 ? "" : "s")
                + ") started once for the suite; a job's time runs from building its stream graph to its result");
        out.println("   each system at parallelism P = " + join(settings.parallelisms())
                + ": the source (a DataGeneratorSource over the stream's"
                + " index; a changelog's by row: the records dealt into P partitions by their row's hash, each partition"
                + " read in order by one subtask), the system's operators (unless it fixes their parallelism) and the"
                + " counting sinks, chained to their input, all at P");
    }

    private static String join(List<Integer> ps) {
        return String.join(", ", ps.stream().map(String::valueOf).toList());
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
        CoreEngineSystem core = CoreEngineSystem.isPHierarchical(workload)
                ? CoreEngineSystem.pHierarchical()
                : CoreEngineSystem.fallback();
        RunResult r = core.run(workload, stream, REFERENCE_CAP);
        if (!r.completed()) {
            return null;
        }
        harness.check(workload, stream, "core " + core.name(), r);
        return harness.reference(workload, stream);
    }

    /**
     * The tables and ratio lines of one workload or dataset: {@code ivm} are flink-ivm's systems,
     * {@code peers} the others, each by name.
     */
    static void summary(
            PrintWriter out,
            String workload,
            List<Measurement> ms,
            List<String> ivm,
            List<String> peers,
            List<Integer> ps) {
        boolean parallel = ps.size() > 1 || ps.get(0) != 1;
        int lowest = ps.get(0);
        List<Measurement> atLowest = Report.atParallelism(ms, lowest);
        out.println();
        out.println("Flink operators — " + workload + ", inserts per second (wall time of the job on a running"
                + " local cluster, submission included; cpu: the process's CPU time, all threads); flink-ivm state: bytes on"
                + " RocksDB, the core engine's entry count for the same plan on heap:");
        Report.table(out, ms, parallel);
        out.println();
        out.println("Task CPU — " + workload + ": CPU of the job's task threads (read every "
                + TaskThreadSampler.INTERVAL_MILLIS
                + " ms from each thread's CPU clock); serial = share of it in chains at"
                + " parallelism 1; amdahl = 1 / serial, the bound on the speed-up of that work on any number of cores;"
                + " imbalance = max/mean subtask CPU of the most uneven chain at parallelism > 1 with at least "
                + Math.round(TaskCpu.IMBALANCE_MIN_SHARE * 100) + "% of the task CPU:");
        Report.parallelismTable(out, ms);
        Report.chainsAtLargestN(out, ms);
        Report.othersAtLargestN(out, ms);
        if (parallel) {
            out.println("ratios at P=" + lowest + ", every n:");
        }
        for (String peer : peers) {
            for (String i : ivm) {
                Report.ratios(out, atLowest, i, peer, Report.Metric.INSERTS_PER_SECOND);
            }
        }
        for (Headline h : HEADLINE_RATIOS) {
            Report.ratiosAtLargestN(out, ms, h.subject(), h.peer(), ps);
        }
        for (Headline h : STATE_RATIOS) {
            Report.stateRatiosAtLargestN(out, ms, h.subject(), h.peer(), ps);
        }
        if (ps.size() > 1) {
            int highest = ps.get(ps.size() - 1);
            out.println("CPU per insert at P=" + highest + " / at P=" + lowest
                    + " (largest n where both completed; above 1:" + " the parallel job spends more CPU per insert):");
            for (String s : ivm) {
                Report.cpuScaling(out, ms, s, lowest, highest);
            }
            for (String s : peers) {
                Report.cpuScaling(out, ms, s, lowest, highest);
            }
        }
        out.println("slope of ns per insert against n (log-log, smallest to largest n; 0 = flat, 1 = linear)"
                + (parallel ? " at P=" + lowest : "") + ":");
        for (String s : ivm) {
            Report.slope(out, atLowest, s);
        }
        for (String s : peers) {
            Report.slope(out, atLowest, s);
        }
        if (atLowest.stream().anyMatch(m -> m.stateOpsPerInsert() >= 0)) {
            out.println("slope of state operations per insert or change against n (log-log, smallest to largest n;"
                    + " the core engine's count for the same plan on the same stream; 0 = flat):");
            for (String s : ivm) {
                Report.stateOpsSlope(out, atLowest, s);
            }
        }
        out.println();
        out.flush();
    }
}
