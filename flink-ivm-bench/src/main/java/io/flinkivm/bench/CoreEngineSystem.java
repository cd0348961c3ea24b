package io.flinkivm.bench;

import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.PayloadOverflowException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * An in-memory engine of flink-ivm-core as a core system: a subclass says which plan and which engine
 * ({@link PHierarchicalSystem}, {@link AblationSystem}, {@link FallbackSystem}); this class times only the
 * insert loop over pre-built tuples (planning, engine creation and the final enumeration are outside), in
 * wall time and in this thread's CPU time plus GC time, checks the result by enumerating it, keeps the
 * engine of the last completed run until {@link #measureEnumeration()} or the next run, and counts state
 * operations in a separate run of an engine that counts.
 */
abstract class CoreEngineSystem implements CoreSystem {
    /** A timed round of enumeration or list reads ends after this many passes at most. */
    static final int ENUMERATION_MAX_PASSES = 1000;
    /** The name of the plain list the enumeration is compared with. */
    static final String LIST = "in-memory-list";
    /** Appended to a system's name for its enumeration with {@link IvmEngine#cursor()}. */
    static final String CURSOR = "(cursor)";

    private final int maxSize;
    private IvmEngine<Long> lastEngine;

    CoreEngineSystem(int maxSize) {
        this.maxSize = maxSize;
    }

    /** The paper's plan, Boolean border. */
    static CoreEngineSystem pHierarchical() {
        return new PHierarchicalSystem(Integer.MAX_VALUE);
    }

    /** The paper's ablation: the same view trees, the natural numbers above the border. */
    static CoreEngineSystem ablation() {
        return new AblationSystem(Integer.MAX_VALUE);
    }

    /** First-order delta joins over the atoms. */
    static CoreEngineSystem fallback() {
        return new FallbackSystem(Integer.MAX_VALUE);
    }

    /** Whether the workload's query is p-hierarchical over the natural numbers (the plan AUTO picks). */
    static boolean isPHierarchical(Workload workload) {
        return Planner.plan(QueryParser.parse(workload.query()), NaturalSemiring.INSTANCE, Planner.Strategy.AUTO)
                instanceof PHierarchicalPlan;
    }

    /** What runs, for {@link #describe}: e.g. "p-hierarchical plan, Boolean border". */
    abstract String what();

    /** The plan this system maintains the workload's query with. */
    abstract MaintenancePlan plan(Workload workload);

    /** This system's engine for {@code plan}; one whose maps count into {@code counts} unless it is null. */
    abstract IvmEngine<Long> engine(MaintenancePlan plan, StateCounts counts);

    @Override
    public abstract CoreEngineSystem upTo(int n);

    @Override
    public final int maxSize() {
        return maxSize;
    }

    @Override
    public final String describe(Workload workload) {
        return name() + ": core in-memory engine, " + what() + "; insert loop timed, single thread"
                + (maxSize == Integer.MAX_VALUE ? "" : "; n <= " + maxSize);
    }

    @Override
    public final void releaseEngine() {
        lastEngine = null;
    }

    @Override
    public final OperationCount countOperations(Workload workload, InsertStream stream, long inserts) {
        StateCounts counts = new StateCounts();
        IvmEngine<Long> engine = engine(plan(workload), counts);
        long start = System.nanoTime();
        for (int i = 0; i < inserts; i++) {
            engine.insert(stream.relation(i), stream.tuple(i), stream.payload(i));
        }
        return new OperationCount(inserts, counts.snapshot(), System.nanoTime() - start);
    }

    @Override
    public final RunResult run(Workload workload, InsertStream stream, Duration cap) {
        lastEngine = null;
        IvmEngine<Long> engine = engine(plan(workload), null);
        long[] times = new long[2];
        int done = CoreSystem.timedInserts(engine::insert, stream, cap, times);
        long elapsed = times[0];
        long cpu = times[1];
        int n = stream.size();
        if (done < n) {
            return new RunResult(
                    elapsed,
                    cpu,
                    false,
                    done,
                    engine.stateEntries(),
                    "entries",
                    -1,
                    0,
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
            return new RunResult(
                    elapsed,
                    cpu,
                    true,
                    n,
                    engine.stateEntries(),
                    "entries",
                    -1,
                    0,
                    "result payloads exceed 64 bits after " + size + " result tuples (" + e.getMessage()
                            + "), not enumerated");
        }
        lastEngine = engine;
        return new RunResult(elapsed, cpu, true, n, engine.stateEntries(), "entries", size, checksum, "");
    }

    /**
     * Enumeration of the full result of the last completed run, with payload recovery, against reading
     * the same result tuples from an {@link ArrayList}: each pass reads every tuple's payload and
     * arity, from the engine's iterator ({@link IvmEngine#enumerate()}), from its cursor
     * ({@link IvmEngine#cursor()}, no object per tuple), or from the list. All three are warmed up first
     * (the JIT compiles them: until a round is not 20% faster than the one before), then timed in
     * {@value #ENUMERATION_ROUNDS} alternating rounds of at least {@value #ENUMERATION_ROUND_NANOS} ns
     * each, so that all see the same load; the figures are the medians over the rounds. Forgets the
     * engine afterwards.
     *
     * @return null if no completed run is kept or its result is empty
     */
    @Override
    public final Enumeration measureEnumeration() {
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
        // One pass's checksum (sums wrap around, the same way in all), compared pass by pass.
        long checksum = enumerationPass(engine);
        if (listPass(list) != checksum || cursorPass(engine) != checksum) {
            throw new IllegalStateException(name() + ": enumeration, cursor and list disagree");
        }
        List<Runnable> passes = List.of(
                () -> check(enumerationPass(engine), checksum),
                () -> check(cursorPass(engine), checksum),
                () -> check(listPass(list), checksum));
        double[][][] rounds = new double[passes.size()][2][ENUMERATION_ROUNDS];
        // Warm-up rounds until each takes what the round before took, within 20%: the JIT has compiled them.
        long warmStart = System.nanoTime();
        double[] before = new double[passes.size()];
        Arrays.fill(before, Double.MAX_VALUE);
        while (System.nanoTime() - warmStart < ENUMERATION_WARM_UP_MAX_NANOS) {
            boolean steady = true;
            for (int k = 0; k < passes.size(); k++) {
                round(rounds[k], 0, list.size(), passes.get(k));
                steady &= rounds[k][0][0] > before[k] / 1.2;
                before[k] = rounds[k][0][0];
            }
            if (steady && System.nanoTime() - warmStart > ENUMERATION_WARM_UP_NANOS) {
                break;
            }
        }
        for (int r = 0; r < ENUMERATION_ROUNDS; r++) {
            for (int k = 0; k < passes.size(); k++) {
                round(rounds[k], r, list.size(), passes.get(k));
            }
        }
        return new Enumeration(
                list.size(),
                median(rounds[0][0]),
                median(rounds[2][0]),
                median(rounds[0][1]),
                median(rounds[2][1]),
                median(rounds[1][0]),
                median(rounds[1][1]));
    }

    /** Enumeration and list reads are warmed up for at least this long before they are timed... */
    static final long ENUMERATION_WARM_UP_NANOS = 200_000_000L;
    /** ... and at most this long, if a round keeps getting faster. */
    static final long ENUMERATION_WARM_UP_MAX_NANOS = 3_000_000_000L;
    /** Timed rounds of enumeration and of list reads, alternating. */
    static final int ENUMERATION_ROUNDS = 15;
    /** A round repeats passes for at least this long. */
    static final long ENUMERATION_ROUND_NANOS = 20_000_000L;

    private void check(long pass, long checksum) {
        if (pass != checksum) {
            throw new IllegalStateException(name() + ": an enumeration pass differs from the first");
        }
    }

    /** Times passes of {@code pass} for at least a round: ns per tuple, wall ([0]) and CPU ([1], -1 if unknown). */
    private static void round(double[][] into, int r, int tuples, Runnable pass) {
        long passes = 0;
        long cpuStart = CpuClock.threadAndGc();
        long start = System.nanoTime();
        do {
            pass.run();
            passes++;
        } while (System.nanoTime() - start < ENUMERATION_ROUND_NANOS && passes < ENUMERATION_MAX_PASSES);
        long wall = System.nanoTime() - start;
        long cpu = CpuClock.between(cpuStart, CpuClock.threadAndGc());
        into[0][r] = wall / ((double) passes * tuples);
        into[1][r] = cpu < 0 ? -1 : cpu / ((double) passes * tuples);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[0] < 0 ? -1 : sorted[sorted.length / 2];
    }

    private static long enumerationPass(IvmEngine<Long> engine) {
        long pass = 0;
        for (Iterator<ResultTuple<Long>> it = engine.enumerate(); it.hasNext(); ) {
            ResultTuple<Long> t = it.next();
            pass += t.payload() + t.tuple().arity();
        }
        return pass;
    }

    private static long cursorPass(IvmEngine<Long> engine) {
        long pass = 0;
        for (ResultCursor<Long> c = engine.cursor(); c.next(); ) {
            pass += c.payload() + c.tuple().arity();
        }
        return pass;
    }

    private static long listPass(List<ResultTuple<Long>> list) {
        long pass = 0;
        for (int k = 0; k < list.size(); k++) {
            ResultTuple<Long> t = list.get(k);
            pass += t.payload() + t.tuple().arity();
        }
        return pass;
    }
}
