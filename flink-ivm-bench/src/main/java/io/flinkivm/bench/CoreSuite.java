package io.flinkivm.bench;

import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.engine.maps.StateCounts.Role;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * "Core II": nanoseconds per insert of the core engines — the p-hierarchical plan, the paper's ablation
 * and the fallback delta joins — and of the memory-hierarchy peer {@code hash-map} (one hash-map upsert
 * per insert) on the same streams, at growing n, for each workload; the median of
 * several runs after warm-up; slow systems are stopped at their cap. After each system's run at its
 * largest n, the enumeration of the full result (payload recovered), by the engine's iterator and by its
 * cursor, is timed against reading as many tuples from a plain list (all warmed up, then medians of
 * alternating rounds). After the timed runs, a separate untimed run of an engine that counts
 * ({@link io.flinkivm.core.engine.maps.StateCounts}) gives the state operations per insert over the same
 * inserts, and from them the time per state operation against the hash-map peer's time per upsert.
 */
final class CoreSuite implements Suite {
    static final List<Integer> SIZES = List.of(10_000, 100_000, 1_000_000, 10_000_000);
    static final List<Integer> QUICK_SIZES = List.of(10_000, 100_000);
    /** The ablation and the fallback stop here: beyond it they are far past any cap. */
    static final int PEER_MAX_SIZE = 1_000_000;

    static final Duration WARM_UP = Duration.ofSeconds(2);
    /**
     * The p-hierarchical plan, the subject, and hash-map, its peer in the ratio line, get this many
     * times the cap (they run up to 10^7 inserts).
     */
    static final int SUBJECT_CAP_FACTOR = 5;

    static final int WARM_UP_SIZE = 10_000;

    private final List<Workload> workloads;
    private final List<CoreSystem> systems;

    CoreSuite(List<Workload> workloads, List<CoreSystem> systems) {
        this.workloads = List.copyOf(workloads);
        this.systems = List.copyOf(systems);
    }

    CoreSuite(Workload workload, List<CoreSystem> systems) {
        this(List.of(workload), systems);
    }

    static CoreSuite defaults() {
        return new CoreSuite(
                Workloads.all(),
                List.of(
                        CoreEngineSystem.pHierarchical(),
                        CoreEngineSystem.ablation().upTo(PEER_MAX_SIZE),
                        CoreEngineSystem.fallback().upTo(PEER_MAX_SIZE),
                        new HashMapPeer()));
    }

    @Override
    public String name() {
        return "core";
    }

    @Override
    public List<Measurement> run(Harness harness, BenchSettings settings) throws Exception {
        return Suite.eachWorkload(workloads, settings, (w, warmUp) -> run(harness, settings, w, warmUp));
    }

    private List<Measurement> run(Harness harness, BenchSettings settings, Workload workload, boolean warmUp)
            throws Exception {
        PrintWriter out = harness.out();
        List<Integer> sizes = settings.sizesOr(SIZES, QUICK_SIZES);
        List<CoreSystem> mineSystems = systems.stream()
                .filter(s -> settings.runs(s) && s.appliesTo(workload))
                .toList();
        if (mineSystems.isEmpty()) {
            return List.of();
        }
        out.println("== suite core (Core II): ns per insert of the core engines, " + workload.name() + " "
                + workload.query());
        out.println("   stream: " + workload.describe(sizes.get(sizes.size() - 1)) + "; seed " + settings.seed());
        for (CoreSystem s : systems) {
            if (!settings.runs(s)) {
                continue;
            }
            out.println("   "
                    + (mineSystems.contains(s)
                            ? s.describe(workload)
                            : s.name() + ": does not apply (the query is" + " not p-hierarchical)"));
        }
        out.println("   median of up to " + settings.coreReps() + " runs (none started after "
                + Harness.REPEAT_BUDGET.toSeconds()
                + " s)"
                + (settings.warmUp() && warmUp ? " after a " + WARM_UP.toSeconds() + " s warm-up per system" : "")
                + "; a run is stopped at " + settings.coreCap().toSeconds() + " s (p-hierarchical and hash-map: "
                + settings.coreCap().multipliedBy(SUBJECT_CAP_FACTOR).toSeconds() + " s) and reported as a bound");
        out.flush();
        if (settings.warmUp() && warmUp) {
            InsertStream warm = workload.generate(
                    Math.min(WARM_UP_SIZE, sizes.get(0)),
                    workload.distributions(settings.distributions()).get(0),
                    settings.seed() + 1);
            for (SystemUnderTest s : mineSystems) {
                harness.warmUp(s, workload, warm, WARM_UP, 50, settings.coreCap());
            }
        }
        List<Measurement> mine = new ArrayList<>();
        Map<String, CoreSystem.OperationCount> counted = new HashMap<>();
        for (Distribution d : workload.distributions(settings.distributions())) {
            CapSkips skips = new CapSkips();
            for (int n : sizes) {
                List<CoreSystem> here = mineSystems.stream()
                        .filter(s ->
                                n <= s.maxSize() && n <= workload.maxSize() && !skips.skips(s, workload, d, n, out))
                        .toList();
                // The peer alone has nothing to be compared with (path at 10^7).
                boolean onlyPeer = here.stream().allMatch(s -> s.role() == CoreSystem.Role.PEER)
                        && mineSystems.stream().anyMatch(s -> s.role() != CoreSystem.Role.PEER);
                if (here.isEmpty() || onlyPeer) {
                    continue;
                }
                InsertStream stream = workload.generate(n, d, settings.seed());
                for (CoreSystem s : here) {
                    Duration cap = s.role() == CoreSystem.Role.ALTERNATIVE
                            ? settings.coreCap()
                            : settings.coreCap().multipliedBy(SUBJECT_CAP_FACTOR);
                    Harness.Outcome o = harness.measure(
                            s, workload, stream, n >= 10_000_000 ? 1 : settings.coreReps(), Harness.REPEAT_BUDGET, cap);
                    RunResult r = o.last();
                    skips.record(s, n, r);
                    harness.check(workload, stream, s.name(), r);
                    Measurement m = o.measurement();
                    if (r.completed() && r.resultSize() >= 0) {
                        m = m.withNote((m.note().isEmpty() ? "" : m.note() + "; ") + r.resultSize() + " result tuples");
                    }
                    boolean lastForSystem = n == largestAtMost(sizes, Math.min(s.maxSize(), workload.maxSize()));
                    CoreSystem.Enumeration e = lastForSystem && r.completed() ? s.measureEnumeration() : null;
                    // The timed engine is released before the counting run builds its own.
                    s.releaseEngine();
                    // A capped run is not counted: its counting run would take the cap again.
                    CoreSystem.OperationCount ops = n <= settings.countUpTo() && r.completed()
                            ? s.countOperations(workload, stream, r.processed())
                            : null;
                    if (ops != null) {
                        m = m.withStateOps(ops.perInsert());
                        counted.put(key(m), ops);
                    }
                    harness.record(m);
                    mine.add(m);
                    if (ops != null && ops.counts() != null) {
                        out.println("    state operations: " + Bounded.number(ops.perInsert()) + " per insert"
                                + (ops.inserts() < n ? " (over the first " + ops.inserts() + " inserts)" : "")
                                + ", counted in "
                                + Report.seconds(ops.nanos() / 1e9) + " (untimed run)");
                    }
                    if (e != null) {
                        mine.addAll(recordEnumeration(harness, workload, stream, s, e));
                    }
                }
                stream = null;
            }
        }
        summary(out, workload, mine, mineSystems);
        stateOperations(out, mine, counted, peerName(mineSystems));
        harness.plot();
        return mine;
    }

    private static String key(Measurement m) {
        return m.system() + "|" + m.distribution() + "|" + m.n();
    }

    /**
     * The table of state operations per insert from the counting runs, by role of the state, next to
     * the timed ns per insert, with the time per operation against the hash-map peer's time per upsert.
     */
    private static void stateOperations(
            PrintWriter out, List<Measurement> all, Map<String, CoreSystem.OperationCount> counted, String peer) {
        List<Measurement> ms = all.stream()
                .filter(m -> m.isInsert()
                        && counted.containsKey(key(m))
                        && counted.get(key(m)).counts() != null)
                .toList();
        if (ms.isEmpty()) {
            return;
        }
        out.println(
                "State operations per insert, from a separate untimed run over the same inserts with hash maps that"
                        + " count (one key read or written is one operation, as one hash-map upsert is; a capped run's: over the"
                        + " inserts it applied), in total and by state: join views, root views, Boolean join, delta joins (over the"
                        + " atoms or the root views), materialized result; deltas: deltas applied to join and root views. ns/op:"
                        + " the timed run's time per state operation (cpu in brackets), against hash-map's ns per upsert at the same n:");
        String format = "%-6s %-9s %8s  %-14s %8s %6s %6s %6s %6s %6s %7s %6s %6s %15s %13s %13s %12s%n";
        out.printf(
                Locale.ROOT,
                format,
                "query",
                "distrib.",
                "n",
                "system",
                "ops/ins",
                "reads",
                "writes",
                "join-v",
                "root-v",
                "bool-j",
                "delta-j",
                "result",
                "deltas",
                "ns/insert (cpu)",
                "ns/op (cpu)",
                "hash-map/ups",
                "op/ups (cpu)");
        for (Measurement m : ms) {
            CoreSystem.OperationCount c = counted.get(key(m));
            StateCounts k = c.counts();
            double opsPerInsert = c.perInsert();
            // Per operation over the inserts actually run: a capped run's bound is its time ÷ n, not ÷ what it applied.
            double scale = (double) m.n() / c.inserts() / opsPerInsert;
            double ns = m.nsPerInsert().value() * scale;
            boolean cpuKnown = m.cpuNsPerInsert().kind() != Bounded.Kind.UNKNOWN;
            double cpu = m.cpuNsPerInsert().value() * scale;
            Measurement peerRun = peer == null ? null : Report.find(all, peer, m.distribution(), m.n());
            String peerNs = peerRun == null
                    ? "n/a"
                    : peerRun.nsPerInsert().format() + " ("
                            + peerRun.cpuNsPerInsert().format() + ")";
            String ratio = peerRun == null
                    ? "n/a"
                    : Bounded.number(ns / peerRun.nsPerInsert().value()) + " ("
                            + (cpuKnown && peerRun.cpuNsPerInsert().kind() != Bounded.Kind.UNKNOWN
                                    ? Bounded.number(
                                            cpu / peerRun.cpuNsPerInsert().value())
                                    : "n/a")
                            + ")";
            out.printf(
                    Locale.ROOT,
                    format,
                    m.query(),
                    m.distribution(),
                    m.n(),
                    m.system(),
                    Bounded.number(opsPerInsert),
                    perInsert(c, k.reads()),
                    perInsert(c, k.writes()),
                    perInsert(c, k.operations(Role.JOIN_VIEW)),
                    perInsert(c, k.operations(Role.ROOT_VIEW)),
                    perInsert(c, k.operations(Role.BOOLEAN_JOIN)),
                    perInsert(c, k.operations(Role.DELTA_JOIN)),
                    perInsert(c, k.operations(Role.RESULT)),
                    perInsert(c, k.reads(Role.JOIN_VIEW) + k.writes(Role.ROOT_VIEW)),
                    m.nsPerInsert().format() + " (" + m.cpuNsPerInsert().format() + ")",
                    Bounded.number(ns) + " (" + (cpuKnown ? Bounded.number(cpu) : "n/a") + ")",
                    peerNs,
                    ratio);
        }
        out.println();
        out.flush();
    }

    private static String perInsert(CoreSystem.OperationCount c, long count) {
        return Bounded.number(c.perInsert(count));
    }

    /** The name of the peer among {@code systems}, or null. */
    private static String peerName(List<CoreSystem> systems) {
        for (CoreSystem s : systems) {
            if (s.role() == CoreSystem.Role.PEER) {
                return s.name();
            }
        }
        return null;
    }

    private static int largestAtMost(List<Integer> sizes, int max) {
        int best = -1;
        for (int n : sizes) {
            if (n <= max) {
                best = Math.max(best, n);
            }
        }
        return best;
    }

    private static List<Measurement> recordEnumeration(
            Harness harness, Workload w, InsertStream stream, CoreSystem s, CoreSystem.Enumeration e)
            throws java.io.IOException {
        String dist = stream.distribution().label();
        Measurement engine = enumerationRow(
                w,
                s.name(),
                dist,
                stream.size(),
                e.engineNsPerTuple(),
                e.engineCpuNsPerTuple(),
                e.tuples(),
                "full result with payload recovery, " + e.tuples() + " tuples");
        Measurement list = enumerationRow(
                w,
                CoreEngineSystem.LIST + "(" + s.name() + ")",
                dist,
                stream.size(),
                e.listNsPerTuple(),
                e.listCpuNsPerTuple(),
                e.tuples(),
                "the same tuples read from an ArrayList");
        Measurement cursor = enumerationRow(
                w,
                s.name() + CoreEngineSystem.CURSOR,
                dist,
                stream.size(),
                e.cursorNsPerTuple(),
                e.cursorCpuNsPerTuple(),
                e.tuples(),
                "the same with IvmEngine.cursor(), no object per tuple");
        harness.record(engine);
        harness.record(cursor);
        harness.record(list);
        return List.of(engine, cursor, list);
    }

    private static Measurement enumerationRow(
            Workload w,
            String system,
            String dist,
            int n,
            double nsPerTuple,
            double cpuNsPerTuple,
            long tuples,
            String note) {
        Bounded ns = Bounded.exact(nsPerTuple);
        Bounded cpu = cpuNsPerTuple < 0 ? Bounded.UNKNOWN : Bounded.exact(cpuNsPerTuple);
        return new Measurement(
                w.name(),
                system,
                dist,
                n,
                ns,
                ns.reciprocal(1e9),
                cpu,
                tuples,
                "result tuples",
                nsPerTuple * tuples / 1e9,
                1,
                note,
                Measurement.ENUMERATE);
    }

    private void summary(PrintWriter out, Workload workload, List<Measurement> all, List<CoreSystem> mineSystems) {
        List<Measurement> ms = all.stream().filter(Measurement::isInsert).toList();
        out.println();
        out.println("Core II — " + workload.name()
                + ", ns per insert (median wall time; cpu: this thread's CPU time plus GC"
                + " time), state in entries:");
        Report.table(out, all);
        for (int i = 1; i < mineSystems.size(); i++) {
            CoreSystem s = mineSystems.get(i);
            if (s.role() == CoreSystem.Role.PEER) {
                // How many single hash-map updates one insert of the engine costs, n by n: flat if the
                // engine grows like the memory hierarchy does.
                Report.ratios(out, ms, mineSystems.get(0).name(), s.name(), Report.Metric.NS_PER_INSERT);
            } else {
                Report.ratios(out, ms, s.name(), mineSystems.get(0).name(), Report.Metric.NS_PER_INSERT);
            }
        }
        out.println("slope of ns per insert against n (log-log, smallest to largest n; 0 = flat, 1 = linear):");
        for (SystemUnderTest s : mineSystems) {
            Report.slope(out, ms, s.name());
        }
        for (Measurement m : all) {
            if (!m.isInsert() && !m.system().startsWith(CoreEngineSystem.LIST)) {
                String system = m.system().endsWith(CoreEngineSystem.CURSOR)
                        ? m.system().substring(0, m.system().length() - CoreEngineSystem.CURSOR.length())
                        : m.system();
                Measurement list = Report.find(
                        all,
                        CoreEngineSystem.LIST + "(" + system + ")",
                        m.distribution(),
                        m.n(),
                        Measurement.ENUMERATE);
                if (list != null) {
                    out.println("enumeration " + m.system() + " " + m.distribution() + " n=" + m.n() + ": "
                            + m.insertsPerSecond().format() + " tuples/s, a plain list "
                            + list.insertsPerSecond().format()
                            + " tuples/s (enumeration takes "
                            + Bounded.number(
                                    m.nsPerInsert().value() / list.nsPerInsert().value())
                            + "x the list's time per tuple; cpu "
                            + m.cpuNsPerInsert().divide(list.cpuNsPerInsert()).format()
                            + "x), " + m.stateSize() + " tuples");
                }
            }
        }
        out.println();
        out.flush();
    }
}
