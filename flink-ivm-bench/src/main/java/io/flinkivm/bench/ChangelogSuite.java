package io.flinkivm.bench;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.FlinkIvm;
import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.types.InputRecord;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * The changelog's cost against a snapshot's: a result of |result| ≈ 10^6 tuples (10^5 with
 * {@code --quick}) in the in-memory engine built with a changelog, then triggers that each change
 * 10^3 result tuples (one root tuple's payload changes, and every result tuple that contains it), each
 * timed against an enumeration of the whole result (a snapshot). The same {@code BorderJoin} runs in
 * the Flink sink. Query {@code Q(A,C) :- R(A,B), S(A,C)} over the natural numbers: {@code S} holds k
 * values of {@code C} for each of k values of {@code A}, so the result is the k² pairs; an insert
 * {@code R(a, b)} with a new {@code b} changes {@code V[A](a)}, hence the k result tuples of {@code a}.
 * Every trigger's rows are checked: exactly the k changed tuples, each once, with their new payload.
 * Then the same result's snapshot on Flink, heap and RocksDB at parallelism 1: the sink's time for it
 * ({@link SnapshotTimer}), its rows checked.
 */
final class ChangelogSuite implements Suite {
    static final String QUERY = "Q(A,C) :- R(A,B), S(A,C)";
    static final int SIDE = 1_000;
    static final int QUICK_SIDE = 316;
    static final int TRIGGERS = 30;
    static final int SNAPSHOTS = 5;

    @Override
    public String name() {
        return "changelog";
    }

    @Override
    public List<Measurement> run(Harness harness, BenchSettings settings) throws Exception {
        PrintWriter out = harness.out();
        int side = settings.quick() ? QUICK_SIDE : SIDE;
        long resultSize = (long) side * side;
        out.println("== suite changelog: a changelog trigger against a snapshot, " + QUERY + " over natural");
        out.println(
                "   result: " + side + " x " + side + " = " + resultSize + " tuples; each trigger follows one insert"
                        + " R(a,b) with a new b, which changes V[A](a) and the " + side + " result tuples of a;"
                        + " in-memory engine with a changelog (Engines.withChangelog), the sink's BorderJoin");
        MaintenancePlan plan = Planner.plan(QueryParser.parse(QUERY), NaturalSemiring.INSTANCE);
        IvmEngine<Long> engine = Engines.withChangelog(plan, NaturalSemiring.INSTANCE);
        for (long a = 0; a < side; a++) {
            engine.insert("R", Tuple.of(a, 0L), 1L);
            for (long c = 0; c < side; c++) {
                engine.insert("S", Tuple.of(a, c), 1L);
            }
        }
        long[] first = {0};
        long start = System.nanoTime();
        engine.changes(c -> first[0]++);
        double firstSeconds = (System.nanoTime() - start) / 1e9;
        check(first[0] == resultSize, "the first trigger has " + first[0] + " rows, not " + resultSize);
        // Warm up the trigger's and the enumeration's code paths before timing them.
        for (int i = 0; i < 3; i++) {
            trigger(engine, i % side, i + 1, side);
            enumerate(engine, resultSize);
        }
        double[] triggerNs = new double[TRIGGERS];
        for (int i = 0; i < TRIGGERS; i++) {
            long a = (7L * i + 3) % side;
            engine.insert("R", Tuple.of(a, 1_000L + i), 1L);
            long t0 = System.nanoTime();
            List<ResultChange<Long>> rows = new ArrayList<>(side);
            engine.changes(rows::add);
            triggerNs[i] = System.nanoTime() - t0;
            checkRows(rows, a, side);
        }
        double[] snapshotNs = new double[SNAPSHOTS];
        for (int i = 0; i < SNAPSHOTS; i++) {
            long t0 = System.nanoTime();
            enumerate(engine, resultSize);
            snapshotNs[i] = System.nanoTime() - t0;
        }
        double trigger = median(triggerNs);
        double snapshot = median(snapshotNs);
        Measurement changelog = row(
                "changelog-trigger",
                side,
                resultSize,
                trigger / side,
                trigger * TRIGGERS / 1e9,
                TRIGGERS,
                side + " changed result tuples per trigger, " + side + " rows each (median of " + TRIGGERS
                        + " triggers: " + Report.seconds(trigger / 1e9) + ")");
        Measurement full = row(
                "snapshot",
                side,
                resultSize,
                snapshot / resultSize,
                snapshot * SNAPSHOTS / 1e9,
                SNAPSHOTS,
                "the whole result enumerated with payload recovery (median of " + SNAPSHOTS + ": "
                        + Report.seconds(snapshot / 1e9) + ")");
        harness.record(changelog);
        harness.record(full);
        out.printf(
                java.util.Locale.ROOT,
                "changelog trigger: %s per trigger, %s rows = the %d changed tuples; snapshot:"
                        + " %s for %d tuples; trigger / snapshot = %.3f%%%n",
                Report.seconds(trigger / 1e9),
                side,
                side,
                Report.seconds(snapshot / 1e9),
                resultSize,
                100 * trigger / snapshot);
        out.printf(
                java.util.Locale.ROOT,
                "the first trigger (every tuple new): %s for %d rows, %.0f ns per row%n",
                Report.seconds(firstSeconds),
                resultSize,
                firstSeconds * 1e9 / resultSize);
        out.println();
        out.flush();
        List<Measurement> all = new ArrayList<>(List.of(changelog, full));
        try {
            for (String backend : List.of("hashmap", "rocksdb")) {
                all.add(flinkSnapshot(harness, backend, side));
            }
        } finally {
            FlinkRuns.shutdown();
        }
        out.println();
        out.flush();
        return all;
    }

    /**
     * A snapshot of the same result on Flink: the flink-ivm job at parallelism 1 on {@code backend} over
     * the inserts, whose last epoch with inserts ends without a trigger (a progress epoch) and the end
     * of the input with one; the sink's time for that trigger ({@link SnapshotTimer}) for |result| rows.
     */
    private static Measurement flinkSnapshot(Harness harness, String backend, int side) throws Exception {
        List<InputRecord<Long>> inserts = new ArrayList<>(side + side * side);
        for (long a = 0; a < side; a++) {
            inserts.add(InputRecord.insert("R", Tuple.of(a, 0L), 1L));
            for (long c = 0; c < side; c++) {
                inserts.add(InputRecord.insert("S", Tuple.of(a, c), 1L));
            }
        }
        long resultSize = (long) side * side;
        MaintenancePlan plan = Planner.plan(QueryParser.parse(QUERY), NaturalSemiring.INSTANCE);
        StreamExecutionEnvironment env = FlinkRuns.environment(backend, 1);
        FlinkRuns.Execution e;
        String system = "flink-ivm-" + (backend.equals("hashmap") ? "heap" : backend) + "-snapshot";
        try (IndexedInput<InputRecord<Long>> records = IndexedInput.of(inserts)) {
            DataStream<InputRecord<Long>> input =
                    records.source(env, FlinkIvm.inputType(NaturalSemiring.INSTANCE), "inserts");
            IvmJob<Long> job = FlinkIvm.maintain(
                    input, plan, NaturalSemiring.INSTANCE, IvmOptions.defaults().withProgressEvery(inserts.size()));
            check(job.results().getParallelism() == 1, "the sink runs at parallelism 1");
            job.results()
                    .transform("time the snapshot", Types.VOID, new SnapshotTimer())
                    .setParallelism(1)
                    .sinkTo(new DiscardingSink<>())
                    .setParallelism(1);
            e = FlinkRuns.execute(env, "bench changelog " + system, Duration.ofMinutes(30));
        }
        check(e.completed(), system + " did not finish within 30 minutes");
        long rows = e.counter(SnapshotTimer.ROWS);
        check(
                rows == resultSize && e.counter(SnapshotTimer.CHECKSUM) == resultSize,
                system + ": the snapshot has " + rows + " rows (checksum " + e.counter(SnapshotTimer.CHECKSUM)
                        + "), not " + resultSize);
        double seconds = e.counter(SnapshotTimer.NANOS) / 1e9;
        long cpu = e.counter(SnapshotTimer.CPU_NANOS);
        Measurement m = row(
                system,
                side,
                resultSize,
                seconds * 1e9 / resultSize,
                cpu < 0 ? Bounded.UNKNOWN : Bounded.exact((double) cpu / resultSize),
                seconds,
                1,
                "Flink, state.backend.type " + backend + ", P = 1: the sink's final snapshot (groups,"
                        + " enumeration, payload recovery, emission) after " + inserts.size() + " inserts");
        harness.record(m);
        harness.out()
                .printf(
                        java.util.Locale.ROOT,
                        "%s: a snapshot of %d tuples took %s at the sink: %.0f tuples/s; the sink thread's CPU"
                                + " time %s: %.0f tuples/s (job: %s)%n",
                        system,
                        resultSize,
                        Report.seconds(seconds),
                        resultSize / seconds,
                        cpu < 0 ? "unknown" : Report.seconds(cpu / 1e9),
                        cpu < 0 ? Double.NaN : resultSize / (cpu / 1e9),
                        Report.seconds(e.elapsedNanos() / 1e9));
        return m;
    }

    private static void trigger(IvmEngine<Long> engine, long a, long b, int side) {
        engine.insert("R", Tuple.of(a, 10_000L + b), 1L);
        List<ResultChange<Long>> rows = new ArrayList<>(side);
        engine.changes(rows::add);
        checkRows(rows, a, side);
    }

    /** The trigger's rows: every (a, c), each once, updated to V[A](a) (its R tuples' count). */
    private static void checkRows(List<ResultChange<Long>> rows, long a, int side) {
        check(rows.size() == side, "a trigger changed " + rows.size() + " rows, not " + side);
        boolean[] seen = new boolean[side];
        long payload = rows.get(0).payload();
        for (ResultChange<Long> c : rows) {
            check(
                    c.tuple().get(0).equals(a)
                            && !c.isInsert()
                            && c.payload() == payload
                            && c.previous() == payload - 1,
                    "unexpected change " + c);
            int col = Math.toIntExact((Long) c.tuple().get(1));
            check(!seen[col], "tuple " + c.tuple() + " twice in one trigger");
            seen[col] = true;
        }
    }

    private static void enumerate(IvmEngine<Long> engine, long expected) {
        long n = 0;
        long sum = 0;
        for (Iterator<ResultTuple<Long>> it = engine.enumerate(); it.hasNext(); ) {
            sum += it.next().payload();
            n++;
        }
        check(n == expected && sum > 0, "the snapshot has " + n + " tuples, not " + expected);
    }

    private static Measurement row(
            String system, int side, long resultSize, double nsPerTuple, double seconds, int runs, String note) {
        return row(system, side, resultSize, nsPerTuple, Bounded.UNKNOWN, seconds, runs, note);
    }

    private static Measurement row(
            String system,
            int side,
            long resultSize,
            double nsPerTuple,
            Bounded cpuNsPerTuple,
            double seconds,
            int runs,
            String note) {
        Bounded ns = Bounded.exact(nsPerTuple);
        return new Measurement(
                "changelog",
                system,
                "side-" + side,
                Math.toIntExact(resultSize),
                ns,
                ns.reciprocal(1e9),
                cpuNsPerTuple,
                resultSize,
                "result tuples",
                seconds,
                runs,
                note,
                Measurement.CHANGELOG);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("changelog suite: " + what);
        }
    }
}
