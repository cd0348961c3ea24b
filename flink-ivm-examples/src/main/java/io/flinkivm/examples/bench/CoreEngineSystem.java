package io.flinkivm.examples.bench;

import io.flinkivm.core.engine.AblationEngine;
import io.flinkivm.core.engine.DeltaJoinEngine;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.engine.PHierarchicalEngine;
import io.flinkivm.core.engine.ResultTuple;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.PayloadOverflowException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * An in-memory engine of flink-ivm-core: the p-hierarchical plan, the paper's ablation (the same view
 * trees with the natural numbers kept above the border, {@link AblationEngine}), or the fallback delta
 * joins. Times only the insert loop over pre-built tuples (planning, engine creation and the final
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
        P_HIERARCHICAL("p-hierarchical"), ABLATION("ablation"), FALLBACK("fallback");

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
        return kind == Kind.FALLBACK || isPHierarchical(workload);
    }

    static boolean isPHierarchical(Workload workload) {
        return Planner.plan(QueryParser.parse(workload.query()), NaturalSemiring.INSTANCE, Planner.Strategy.AUTO).kind()
                == PlanKind.P_HIERARCHICAL;
    }

    @Override
    public String describe(Workload workload) {
        String what = switch (kind) {
            case P_HIERARCHICAL -> "p-hierarchical plan, Boolean border";
            case ABLATION -> "the same view trees, natural numbers above the border (first-order delta joins of the root views)";
            case FALLBACK -> "fallback plan, first-order delta joins over the atoms";
        };
        return name() + ": core in-memory engine, " + what + "; insert loop timed, single thread"
                + (maxSize == Integer.MAX_VALUE ? "" : "; n <= " + maxSize);
    }

    MaintenancePlan plan(Workload workload) {
        Planner.Strategy strategy = kind == Kind.FALLBACK ? Planner.Strategy.FALLBACK : Planner.Strategy.P_HIERARCHICAL;
        return Planner.plan(QueryParser.parse(workload.query()), NaturalSemiring.INSTANCE, strategy);
    }

    private IvmEngine<Long> engine(MaintenancePlan plan) {
        return switch (kind) {
            case P_HIERARCHICAL -> new PHierarchicalEngine<>(plan, NaturalSemiring.INSTANCE);
            case ABLATION -> new AblationEngine<>(plan, NaturalSemiring.INSTANCE);
            case FALLBACK -> new DeltaJoinEngine<>(plan, NaturalSemiring.INSTANCE);
        };
    }

    @Override
    public RunResult run(Workload workload, InsertStream stream, Duration cap) {
        lastEngine = null;
        IvmEngine<Long> engine = engine(plan(workload));
        int n = stream.size();
        long cpuStart = CpuClock.threadAndGc();
        long start = System.nanoTime();
        long deadline = start + cap.toNanos();
        int i = 0;
        while (i < n) {
            int end = Math.min(n, i + CAP_CHECK_EVERY);
            for (; i < end; i++) {
                engine.insert(stream.relation(i), stream.tuple(i), stream.payload(i));
            }
            if (i < n && System.nanoTime() - deadline > 0) {
                long elapsed = System.nanoTime() - start;
                long cpu = CpuClock.between(cpuStart, CpuClock.threadAndGc());
                return new RunResult(elapsed, cpu, false, i, stateEntries(engine), "entries", -1, 0,
                        "stopped after " + i + " of " + n + " inserts");
            }
        }
        long elapsed = System.nanoTime() - start;
        long cpu = CpuClock.between(cpuStart, CpuClock.threadAndGc());
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
            return new RunResult(elapsed, cpu, true, n, stateEntries(engine), "entries", -1, 0,
                    "result payloads exceed 64 bits after " + size + " result tuples (" + e.getMessage()
                            + "), not enumerated");
        }
        lastEngine = engine;
        return new RunResult(elapsed, cpu, true, n, stateEntries(engine), "entries", size, checksum, "");
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

    private static long stateEntries(IvmEngine<Long> engine) {
        if (engine instanceof PHierarchicalEngine<Long> p) {
            return p.stateEntries();
        }
        if (engine instanceof AblationEngine<Long> a) {
            return a.stateEntries();
        }
        if (engine instanceof DeltaJoinEngine<Long> d) {
            return d.stateEntries();
        }
        return -1;
    }
}
