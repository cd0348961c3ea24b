package io.flinkivm.examples.bench;

import io.flinkivm.core.engine.AblationEngine;
import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.PayloadOverflowException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * An in-memory engine of flink-ivm-core: the p-hierarchical plan, the paper's ablation (the same view
 * trees with the natural numbers kept above the border, {@link AblationEngine}), or the fallback delta
 * joins; or the memory-hierarchy peer {@code hash-map}, which does one hash-map upsert per insert (the
 * insert's tuple in its relation's {@link HashMap}, payloads summed) and maintains no query: it shows
 * how the cost of a single hash-map update grows with n on the same stream, timed the same way. Times only the insert loop over pre-built tuples (planning, engine creation and the final
 * enumeration are outside), in wall time and in this thread's CPU time plus GC time; the cap is
 * checked every {@value #CAP_CHECK_EVERY} inserts. The engine of the last completed run is kept until
 * {@link #measureEnumeration()} or the next run.
 */
final class CoreEngineSystem implements SystemUnderTest {
    static final int CAP_CHECK_EVERY = 256;
    /** Enumeration and list reads are repeated until this much time has passed (or {@value #ENUMERATION_MAX_PASSES} passes). */
    static final long ENUMERATION_MIN_NANOS = 300_000_000L;
    static final int ENUMERATION_MAX_PASSES = 1000;
    /** The name of the plain list the enumeration is compared with. */
    static final String LIST = "in-memory-list";

    enum Kind {
        P_HIERARCHICAL("p-hierarchical"), ABLATION("ablation"), FALLBACK("fallback"), HASH_MAP("hash-map");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    private final Kind kind;
    private final int maxSize;
    private IvmEngine<Long> lastEngine;

    private CoreEngineSystem(Kind kind, int maxSize) {
        this.kind = kind;
        this.maxSize = maxSize;
    }

    static CoreEngineSystem pHierarchical() {
        return new CoreEngineSystem(Kind.P_HIERARCHICAL, Integer.MAX_VALUE);
    }

    static CoreEngineSystem ablation() {
        return new CoreEngineSystem(Kind.ABLATION, Integer.MAX_VALUE);
    }

    static CoreEngineSystem fallback() {
        return new CoreEngineSystem(Kind.FALLBACK, Integer.MAX_VALUE);
    }

    /** One hash-map upsert per insert: the peer that shows how a single map update grows with n. */
    static CoreEngineSystem hashMap() {
        return new CoreEngineSystem(Kind.HASH_MAP, Integer.MAX_VALUE);
    }

    boolean isHashMap() {
        return kind == Kind.HASH_MAP;
    }

    /** The same system, measured only on streams of at most {@code n} inserts. */
    CoreEngineSystem upTo(int n) {
        return new CoreEngineSystem(kind, n);
    }

    @Override
    public String name() {
        return kind.label;
    }

    @Override
    public int maxSize() {
        return maxSize;
    }

    @Override
    public boolean appliesTo(Workload workload) {
        return kind == Kind.FALLBACK || kind == Kind.HASH_MAP || isPHierarchical(workload);
    }

    static boolean isPHierarchical(Workload workload) {
        return Planner.plan(QueryParser.parse(workload.query()), NaturalSemiring.INSTANCE, Planner.Strategy.AUTO)
                instanceof PHierarchicalPlan;
    }

    @Override
    public String describe(Workload workload) {
        if (kind == Kind.HASH_MAP) {
            return name() + ": not a query engine: per insert one upsert of the tuple into its relation's"
                    + " java.util.HashMap<Tuple, Long> (payloads summed), the cost of a single hash-map update at this n;"
                    + " insert loop timed like the engines', single thread; its result is not the query's (not checked)"
                    + (maxSize == Integer.MAX_VALUE ? "" : "; n <= " + maxSize);
        }
        String what = switch (kind) {
            case P_HIERARCHICAL -> "p-hierarchical plan, Boolean border";
            case ABLATION -> "the same view trees, natural numbers above the border (first-order delta joins of the root views)";
            case FALLBACK -> "fallback plan, first-order delta joins over the atoms";
            case HASH_MAP -> throw new AssertionError();
        };
        return name() + ": core in-memory engine, " + what + "; insert loop timed, single thread"
                + (maxSize == Integer.MAX_VALUE ? "" : "; n <= " + maxSize);
    }

    MaintenancePlan plan(Workload workload) {
        Planner.Strategy strategy = kind == Kind.FALLBACK ? Planner.Strategy.FALLBACK : Planner.Strategy.P_HIERARCHICAL;
        return Planner.plan(QueryParser.parse(workload.query()), NaturalSemiring.INSTANCE, strategy);
    }

    /** This system's engine for {@code plan}; one that counts into {@code counts} unless it is null. */
    private IvmEngine<Long> engine(MaintenancePlan plan, StateCounts counts) {
        NaturalSemiring n = NaturalSemiring.INSTANCE;
        return switch (kind) {
            case P_HIERARCHICAL, FALLBACK -> counts == null ? Engines.create(plan, n) : Engines.create(plan, n, counts);
            case ABLATION -> counts == null ? new AblationEngine<>((PHierarchicalPlan) plan, n)
                    : new AblationEngine<>((PHierarchicalPlan) plan, n, counts);
            case HASH_MAP -> throw new AssertionError();
        };
    }

    /** Forgets the engine of the last run (kept for {@link #measureEnumeration()}), so that its state can be collected. */
    void releaseEngine() {
        lastEngine = null;
    }

    /**
     * Counts the state operations of the first {@code inserts} inserts of {@code stream} in an untimed
     * run of an engine that counts ({@link StateCounts}); its own engine, so that the timed runs' maps
     * never count. The hash-map peer does one upsert per insert by construction and is not run.
     */
    OperationCount countOperations(Workload workload, InsertStream stream, long inserts) {
        if (kind == Kind.HASH_MAP) {
            return new OperationCount(inserts, null, -1, 0);
        }
        StateCounts counts = new StateCounts();
        MaintenancePlan plan = plan(workload);
        IvmEngine<Long> engine = engine(plan, counts);
        long start = System.nanoTime();
        for (int i = 0; i < inserts; i++) {
            engine.insert(stream.relation(i), stream.tuple(i), stream.payload(i));
        }
        return new OperationCount(inserts, counts.snapshot(), engine.borderCrossings(), System.nanoTime() - start);
    }

    /**
     * The state operations of a counted run.
     *
     * @param inserts inserts counted (a capped system's: as many as its timed run applied)
     * @param counts the engine's counts; null for the hash-map peer (one upsert per insert)
     * @param borderCrossings root tuples that crossed the border ({@link IvmEngine#borderCrossings()}; -1 for the
     *     hash-map peer)
     * @param nanos wall time of the counting run
     */
    record OperationCount(long inserts, StateCounts counts, long borderCrossings, long nanos) {
        /** All reads and writes per insert (1 for the hash-map peer). */
        double perInsert() {
            return counts == null ? 1 : perInsert(counts.operations());
        }

        double perInsert(long count) {
            return inserts == 0 ? 0 : (double) count / inserts;
        }
    }

    /** One insert of a stream into the system being timed. */
    private interface Inserter {
        void insert(String relation, Tuple tuple, Long payload);
    }

    /** The {@code hash-map} peer's state: per relation, each distinct tuple with the sum of its payloads. */
    private static final class Upserts implements Inserter {
        final Map<String, Map<Tuple, Long>> relations = new HashMap<>();

        @Override
        public void insert(String relation, Tuple tuple, Long payload) {
            Map<Tuple, Long> m = relations.get(relation);
            if (m == null) {
                m = new HashMap<>();
                relations.put(relation, m);
            }
            m.merge(tuple, payload, Long::sum);
        }

        long entries() {
            long total = 0;
            for (Map<Tuple, Long> m : relations.values()) {
                total += m.size();
            }
            return total;
        }
    }

    @Override
    public RunResult run(Workload workload, InsertStream stream, Duration cap) {
        lastEngine = null;
        if (kind == Kind.HASH_MAP) {
            Upserts upserts = new Upserts();
            long[] times = new long[2];
            int done = timedInserts(upserts, stream, cap, times);
            // resultSize -1: not the query's result, so it takes no part in the harness's result check.
            return new RunResult(times[0], times[1], done == stream.size(), done, upserts.entries(), "entries", -1, 0,
                    done == stream.size() ? "" : "stopped after " + done + " of " + stream.size() + " inserts");
        }
        IvmEngine<Long> engine = engine(plan(workload), null);
        long[] times = new long[2];
        int done = timedInserts(engine::insert, stream, cap, times);
        long elapsed = times[0];
        long cpu = times[1];
        int n = stream.size();
        if (done < n) {
            return new RunResult(elapsed, cpu, false, done, engine.stateEntries(), "entries", -1, 0,
                    "stopped after " + done + " of " + n + " inserts");
        }
        long size = 0;
        long checksum = 0;
        try {
            for (Iterator<ResultTuple<Long>> it = engine.enumerate(); it.hasNext(); ) {
                checksum += it.next().payload();
                size++;
            }
        } catch (PayloadOverflowException e) {
            // Genuine: a result tuple's number of derivations (the product of its root views' sums)
            // exceeds 2^63 while every view below stayed in range. The inserts are timed; the result
            // cannot be checked or enumerated in 64 bits.
            return new RunResult(elapsed, cpu, true, n, engine.stateEntries(), "entries", -1, 0,
                    "result payloads exceed 64 bits after " + size + " result tuples (" + e.getMessage()
                            + "), not enumerated");
        }
        lastEngine = engine;
        return new RunResult(elapsed, cpu, true, n, engine.stateEntries(), "entries", size, checksum, "");
    }

    /**
     * The timed insert loop, the same for every kind: wall time and CPU time into {@code times}; the cap
     * is checked every {@value #CAP_CHECK_EVERY} inserts.
     *
     * @return the inserts applied (fewer than the stream's if the cap stopped the loop)
     */
    private static int timedInserts(Inserter target, InsertStream stream, Duration cap, long[] times) {
        int n = stream.size();
        long cpuStart = CpuClock.threadAndGc();
        long start = System.nanoTime();
        long deadline = start + cap.toNanos();
        int i = 0;
        while (i < n) {
            int end = Math.min(n, i + CAP_CHECK_EVERY);
            for (; i < end; i++) {
                target.insert(stream.relation(i), stream.tuple(i), stream.payload(i));
            }
            if (i < n && System.nanoTime() - deadline > 0) {
                break;
            }
        }
        times[0] = System.nanoTime() - start;
        times[1] = CpuClock.between(cpuStart, CpuClock.threadAndGc());
        return i;
    }

    /**
     * Enumeration of the full result of the last completed run, with payload recovery, against reading
     * the same result tuples from an {@link ArrayList}: each pass reads every tuple's payload and
     * arity; passes repeat until {@link #ENUMERATION_MIN_NANOS}. Forgets the engine afterwards.
     *
     * @return null if no completed run is kept or its result is empty
     */
    Enumeration measureEnumeration() {
        IvmEngine<Long> engine = lastEngine;
        lastEngine = null;
        if (engine == null) {
            return null;
        }
        List<ResultTuple<Long>> list = new ArrayList<>();
        engine.enumerate().forEachRemaining(list::add);
        if (list.isEmpty()) {
            return null;
        }
        // One pass's checksum (sums wrap around, the same way in both passes), compared pass by pass.
        long checksum = 0;
        long passes = 0;
        long cpuStart = CpuClock.threadAndGc();
        long start = System.nanoTime();
        do {
            long pass = 0;
            for (Iterator<ResultTuple<Long>> it = engine.enumerate(); it.hasNext(); ) {
                ResultTuple<Long> t = it.next();
                pass += t.payload() + t.tuple().arity();
            }
            if (passes > 0 && pass != checksum) {
                throw new IllegalStateException(name() + ": enumeration pass " + passes + " differs from the first");
            }
            checksum = pass;
            passes++;
        } while (System.nanoTime() - start < ENUMERATION_MIN_NANOS && passes < ENUMERATION_MAX_PASSES);
        long engineNanos = System.nanoTime() - start;
        long engineCpu = CpuClock.between(cpuStart, CpuClock.threadAndGc());
        long listChecksum = 0;
        long listPasses = 0;
        cpuStart = CpuClock.threadAndGc();
        start = System.nanoTime();
        do {
            long pass = 0;
            for (int k = 0; k < list.size(); k++) {
                ResultTuple<Long> t = list.get(k);
                pass += t.payload() + t.tuple().arity();
            }
            listChecksum = pass;
            listPasses++;
        } while (System.nanoTime() - start < ENUMERATION_MIN_NANOS && listPasses < ENUMERATION_MAX_PASSES);
        long listNanos = System.nanoTime() - start;
        long listCpu = CpuClock.between(cpuStart, CpuClock.threadAndGc());
        if (checksum != listChecksum) {
            throw new IllegalStateException(name() + ": enumeration and list disagree");
        }
        double tuples = list.size();
        return new Enumeration(list.size(), engineNanos / (passes * tuples), listNanos / (listPasses * tuples),
                engineCpu < 0 ? -1 : engineCpu / (passes * tuples), listCpu < 0 ? -1 : listCpu / (listPasses * tuples));
    }

    /**
     * Enumeration rates of one result.
     *
     * @param tuples result tuples
     * @param engineNsPerTuple ns per tuple enumerated by the engine, payload recovered
     * @param listNsPerTuple ns per tuple read from a plain list
     * @param engineCpuNsPerTuple, listCpuNsPerTuple the same in this thread's CPU time plus GC time (-1 if unknown)
     */
    record Enumeration(long tuples, double engineNsPerTuple, double listNsPerTuple, double engineCpuNsPerTuple,
            double listCpuNsPerTuple) {
    }
}
