package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.RandomStreams;
import io.flinkivm.core.testing.ResultDiff;
import io.flinkivm.flink.source.PartitionedSource;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Pieces of the MiniCluster jobs that check checkpoints, failures and savepoints: a replayable
 * throttled source, injected failures ({@link Fault}: at a record, during a checkpoint, on its
 * completion, right after a snapshot), a recorder that sees every result record of every attempt
 * (at least once) and checks them, and the expected snapshots from the core engine and the naive
 * oracle.
 */
final class IvmTestJobs {
    private IvmTestJobs() {}

    /**
     * State backend, checkpoints every 100 ms (incremental, on the file system under {@code dir}),
     * a bounded fixed-delay restart strategy, and no Kryo.
     */
    static Configuration checkpointed(String backend, int parallelism, Path dir) {
        Configuration c = new Configuration();
        c.setString("state.backend.type", backend);
        c.setString("execution.checkpointing.interval", "100 ms");
        c.setString("execution.checkpointing.incremental", "true");
        c.setString("execution.checkpointing.storage", "filesystem");
        c.setString("execution.checkpointing.dir", dir.toUri().toString());
        c.setString("restart-strategy.type", "fixed-delay");
        c.setString("restart-strategy.fixed-delay.attempts", "5");
        c.setString("restart-strategy.fixed-delay.delay", "100 ms");
        c.setString("pipeline.generic-types", "false");
        c.setString("parallelism.default", String.valueOf(parallelism));
        return c;
    }

    static <T> List<InputRecord<T>> records(List<Insert<T>> stream) {
        List<InputRecord<T>> out = new ArrayList<>(stream.size());
        for (int i = 0; i < stream.size(); i++) {
            Insert<T> insert = stream.get(i);
            out.add(InputRecord.insert(insert.relation(), insert.tuple(), insert.payload(), "insert " + (i + 1)));
        }
        return out;
    }

    /**
     * A stream dealt round robin into {@code p} partitions; partition i is read, in order, by source
     * subtask i and so by ingest subtask i (chained, forward). A snapshot's cut claims the first
     * cut[i] inserts of partition i.
     */
    record Partitioned<T>(List<Insert<T>> stream, List<List<Insert<T>>> partitions) {
        static <T> Partitioned<T> roundRobin(List<Insert<T>> stream, int p) {
            return new Partitioned<>(stream, PartitionedSource.roundRobin(stream, p));
        }

        int parallelism() {
            return partitions.size();
        }

        /** The inserts a cut claims. */
        List<Insert<T>> claimed(long[] cut) {
            List<Insert<T>> out = new ArrayList<>();
            for (int i = 0; i < cut.length; i++) {
                out.addAll(partitions.get(i).subList(0, Math.toIntExact(cut[i])));
            }
            return out;
        }

        /** The records of each partition, with origins {@code insert n} (n: the position in the whole stream, from 1). */
        List<List<InputRecord<T>>> records() {
            return PartitionedSource.roundRobin(IvmTestJobs.records(stream), partitions.size());
        }
    }

    /**
     * The partitions from a checkpointed {@link PartitionedSource} at their number's parallelism (a
     * restore resumes at the checkpointed positions), throttled by {@code rate}: e.g.
     * {@link RateLimiterStrategy#perCheckpoint} guarantees checkpoints in the middle of the stream
     * however slow the machine is.
     */
    static <T> SingleOutputStreamOperator<InputRecord<T>> source(
            StreamExecutionEnvironment env,
            Partitioned<T> parts,
            TypeInformation<InputRecord<T>> type,
            RateLimiterStrategy<?> rate) {
        return env.fromSource(
                        PartitionedSource.of(
                                        parts.records(), type, env.getConfig().getSerializerConfig())
                                .withRateLimit(rate),
                        WatermarkStrategy.noWatermarks(),
                        "inserts")
                .setParallelism(parts.parallelism())
                .uid("test-inserts");
    }

    /**
     * For each snapshot (by id, with its cut), the core engine's result over exactly the inserts the
     * cut claims; the cuts grow from one snapshot to the next, so each insert is applied once.
     */
    static <T> TreeMap<Long, Map<Tuple, T>> overCuts(
            MaintenancePlan plan, Semiring<T> k, Partitioned<T> parts, Map<Long, long[]> cuts) {
        IvmEngine<T> engine = Engines.create(plan, k);
        long[] applied = new long[parts.parallelism()];
        TreeMap<Long, Map<Tuple, T>> out = new TreeMap<>();
        for (Map.Entry<Long, long[]> e : new TreeMap<>(cuts).entrySet()) {
            long[] cut = e.getValue();
            long total = 0;
            for (int i = 0; i < cut.length; i++) {
                assertThat(cut[i])
                        .as("cut of snapshot %d at subtask %d", e.getKey(), i)
                        .isGreaterThanOrEqualTo(applied[i]);
                for (long j = applied[i]; j < cut[i]; j++) {
                    Insert<T> insert = parts.partitions().get(i).get(Math.toIntExact(j));
                    engine.insert(insert.relation(), insert.tuple(), insert.payload());
                }
                applied[i] = cut[i];
                total += cut[i];
            }
            assertThat(total).as("snapshot id is the inserts its cut claims").isEqualTo(e.getKey());
            out.put(e.getKey(), enumerate(engine));
        }
        return out;
    }

    /**
     * Checks every snapshot in {@code records} against the naive evaluator over exactly the inserts its
     * cut claims, and the one over the whole stream against the core engine; returns the snapshots.
     */
    static <T> TreeMap<Long, Map<Tuple, T>> checkSnapshots(
            MaintenancePlan plan,
            Semiring<T> k,
            Partitioned<T> input,
            List<ResultRecord<T>> records,
            int parts,
            String label) {
        TreeMap<Long, Map<Tuple, T>> snapshots = Snapshots.byId(records, parts);
        Map<Long, long[]> cuts = Snapshots.cuts(records);
        long n = input.stream().size();
        String context = label + "\nquery: " + plan.query() + "\nplan: " + plan.kind() + "\nstream: "
                + RandomStreams.format(input.stream());
        assertThat(snapshots).as("snapshots of %s", context).containsKey(n);
        for (Map.Entry<Long, Map<Tuple, T>> e : snapshots.entrySet()) {
            long[] cut = cuts.get(e.getKey());
            assertThat(cut).as("cut of snapshot %d", e.getKey()).hasSize(input.parallelism());
            KDatabase<T> db = new KDatabase<>(k);
            for (Insert<T> i : input.claimed(cut)) {
                db.insert(i.relation(), i.tuple(), i.payload());
            }
            Map<Tuple, T> expected = NaiveEvaluator.evaluate(plan.query(), k, db.relations());
            assertThat(ResultDiff.compare(k, expected, List.copyOf(e.getValue().entrySet())))
                    .as("snapshot %d (cut %s) of %s", e.getKey(), java.util.Arrays.toString(cut), context)
                    .isEmpty();
        }
        IvmEngine<T> engine = Engines.create(plan, k);
        for (Insert<T> i : input.stream()) {
            engine.insert(i.relation(), i.tuple(), i.payload());
        }
        assertThat(ResultDiff.compare(
                        k, snapshots.get(n), List.copyOf(enumerate(engine).entrySet())))
                .as("final snapshot vs core engine, %s", context)
                .isEmpty();
        return snapshots;
    }

    static <T> Map<Tuple, T> enumerate(IvmEngine<T> engine) {
        Map<Tuple, T> result = new HashMap<>();
        for (Iterator<ResultTuple<T>> it = engine.enumerate(); it.hasNext(); ) {
            ResultTuple<T> r = it.next();
            result.put(r.tuple(), r.payload());
        }
        return result;
    }

    /** Where and when an injected failure happens; see {@link Fault}. */
    enum FaultKind {
        /**
         * Upstream (between the source and flink-ivm), at the {@code at}-th record of the attempt (at
         * the injector's subtask 0) once a checkpoint has completed in it.
         */
        AT_RECORD,
        /**
         * In {@code snapshotState} of the injector's {@code at}-th checkpoint of the attempt: the
         * checkpoint is in flight (the operators before the injector have taken their part of it).
         */
        IN_CHECKPOINT,
        /**
         * In {@code notifyCheckpointComplete} of the injector's {@code at}-th completed checkpoint of
         * the attempt: the checkpoint is complete, the records after its barrier are lost.
         */
        ON_CHECKPOINT_COMPLETE,
        /**
         * Downstream (after the recorder, behind the sink), right after the {@code at}-th complete
         * snapshot of the attempt (all its parts' end markers) was recorded.
         */
        AFTER_SNAPSHOT
    }

    /**
     * One injected failure.
     *
     * @param upstream whether the upstream injector (between source and flink-ivm) throws it, else the
     *     downstream one (behind the sink); {@link FaultKind#AT_RECORD} is upstream and
     *     {@link FaultKind#AFTER_SNAPSHOT} downstream only
     * @param at the ordinal (from 1, within the attempt) of the record, checkpoint or snapshot
     */
    record Fault(FaultKind kind, boolean upstream, long at) implements Serializable {
        Fault {
            if ((kind == FaultKind.AT_RECORD && !upstream) || (kind == FaultKind.AFTER_SNAPSHOT && upstream)) {
                throw new IllegalArgumentException(
                        kind + " cannot be injected " + (upstream ? "upstream" : "downstream"));
            }
        }

        @Override
        public String toString() {
            return kind + "(" + at + (upstream ? ", upstream" : ", downstream") + ")";
        }
    }

    /** A failure that was thrown: the fault, the attempt, what it hit, and (for AFTER_SNAPSHOT) the snapshot id. */
    record Fired(Fault fault, int attempt, String where, long snapshot) {
        @Override
        public String toString() {
            return fault + " in attempt " + attempt + ": " + where;
        }
    }

    /** Failures thrown, by test run, in order. */
    static final Map<String, Queue<Fired>> FAILURES = new ConcurrentHashMap<>();

    static List<Fired> fired(String run) {
        Queue<Fired> f = FAILURES.get(run);
        return f == null ? List.of() : new ArrayList<>(f);
    }

    /**
     * Passes the inserts through an injector (chained to the source, at its parallelism) that throws
     * the upstream faults of {@code schedule}. The i-th fault of the schedule belongs to the attempt
     * that starts after i failures were thrown.
     */
    static <T> DataStream<InputRecord<T>> injectFaults(
            DataStream<InputRecord<T>> inserts, String run, List<Fault> schedule) {
        FAILURES.put(run, new ConcurrentLinkedQueue<>());
        return inserts.map(new InputFaults<>(run, schedule))
                .returns(inserts.getType())
                .setParallelism(inserts.getParallelism())
                .uid("test-input-faults");
    }

    /**
     * Throws the faults of a schedule assigned to it (upstream or downstream), one per attempt, at its
     * subtask 0: the attempt's fault is the schedule's entry number "failures thrown so far in this
     * run", read when the injector opens (before any fault of the attempt can be thrown, since each
     * needs records or a checkpoint to flow through every task).
     */
    abstract static class FaultInjector<X> extends RichMapFunction<X, X>
            implements CheckpointedFunction, CheckpointListener {
        private static final long serialVersionUID = 1L;
        protected final String run;
        private final ArrayList<Fault> schedule;
        private final boolean upstream;
        protected transient Fault fault;
        protected transient int attempt;
        protected transient long checkpointsCompleted;
        private transient long checkpointsTaken;

        FaultInjector(String run, List<Fault> schedule, boolean upstream) {
            this.run = run;
            this.schedule = new ArrayList<>(schedule);
            this.upstream = upstream;
        }

        @Override
        public void open(OpenContext context) {
            attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
            int thrown = fired(run).size();
            Fault next = thrown < schedule.size() ? schedule.get(thrown) : null;
            boolean first = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0;
            fault = next != null && next.upstream() == upstream && first ? next : null;
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}

        @Override
        public void snapshotState(FunctionSnapshotContext context) throws Exception {
            checkpointsTaken++;
            if (is(FaultKind.IN_CHECKPOINT) && checkpointsTaken == fault.at()) {
                fail("in snapshotState of checkpoint " + context.getCheckpointId(), -1);
            }
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            checkpointsCompleted++;
            if (is(FaultKind.ON_CHECKPOINT_COMPLETE) && checkpointsCompleted == fault.at()) {
                fail("in notifyCheckpointComplete of checkpoint " + checkpointId, -1);
            }
        }

        protected final boolean is(FaultKind kind) {
            return fault != null && fault.kind() == kind;
        }

        protected final void fail(String where, long snapshot) throws InjectedFailure {
            Fault f = fault;
            fault = null;
            FAILURES.get(run).add(new Fired(f, attempt, where, snapshot));
            throw new InjectedFailure("injected " + f + " in attempt " + attempt + " " + where);
        }
    }

    /** The upstream injector; also throws {@link FaultKind#AT_RECORD} faults. */
    static final class InputFaults<T> extends FaultInjector<InputRecord<T>> {
        private static final long serialVersionUID = 1L;
        private transient long seen;

        InputFaults(String run, List<Fault> schedule) {
            super(run, schedule, true);
        }

        @Override
        public InputRecord<T> map(InputRecord<T> r) throws Exception {
            seen++;
            if (is(FaultKind.AT_RECORD) && checkpointsCompleted > 0 && seen >= fault.at()) {
                fail("at " + r.origin() + " after " + seen + " records", -1);
            }
            return r;
        }
    }

    /** The downstream injector (behind the recorder); also throws {@link FaultKind#AFTER_SNAPSHOT} faults. */
    static final class OutputFaults<T> extends FaultInjector<ResultRecord<T>> {
        private static final long serialVersionUID = 1L;
        private final int parts;
        private transient Map<Long, Integer> ends;
        private transient long complete;

        OutputFaults(String run, List<Fault> schedule, int parts) {
            super(run, schedule, false);
            this.parts = parts;
        }

        @Override
        public void open(OpenContext context) {
            super.open(context);
            ends = new HashMap<>();
        }

        @Override
        public ResultRecord<T> map(ResultRecord<T> r) throws Exception {
            if (r.isEnd() && r.isPrefixExact() && ends.merge(r.snapshotId(), 1, Integer::sum) == parts) {
                complete++;
                if (is(FaultKind.AFTER_SNAPSHOT) && complete == fault.at()) {
                    fail("right after snapshot " + r.snapshotId(), r.snapshotId());
                }
            }
            return r;
        }
    }

    static final class InjectedFailure extends Exception {
        private static final long serialVersionUID = 1L;

        InjectedFailure(String message) {
            super(message);
        }
    }

    /** A result record as the recorder saw it, with the attempt number of the recording subtask. */
    record Seen<T>(int attempt, ResultRecord<T> record) {}

    /** Everything recorders saw, by test run. */
    static final Map<String, Queue<Seen<?>>> SEEN = new ConcurrentHashMap<>();

    /** Records every result record (of every attempt, so at least once) under {@code run}. */
    static <T> void record(DataStream<ResultRecord<T>> results, String run) {
        record(results, run, List.of(), 1);
    }

    /**
     * Records every result record under {@code run}, then passes it to an injector (in the same task)
     * that throws the downstream faults of {@code schedule}; {@code parts} is the number of sink
     * subtasks. Call {@link #injectFaults} first: it resets the run's failures.
     */
    static <T> void record(DataStream<ResultRecord<T>> results, String run, List<Fault> schedule, int parts) {
        SEEN.put(run, new ConcurrentLinkedQueue<>());
        FAILURES.putIfAbsent(run, new ConcurrentLinkedQueue<>());
        DataStream<ResultRecord<T>> recorded = results.map(new Recorder<>(run))
                .returns(results.getType())
                .setParallelism(1)
                .uid("test-recorder-" + run);
        if (schedule.stream().anyMatch(f -> !f.upstream())) {
            recorded = recorded.map(new OutputFaults<>(run, schedule, parts))
                    .returns(results.getType())
                    .setParallelism(1)
                    .uid("test-output-faults");
        }
        recorded.sinkTo(new DiscardingSink<>()).setParallelism(1);
    }

    static final class Recorder<T> extends RichMapFunction<ResultRecord<T>, ResultRecord<T>> {
        private static final long serialVersionUID = 1L;
        private final String run;
        private transient int attempt;

        Recorder(String run) {
            this.run = run;
        }

        @Override
        public void open(OpenContext context) {
            attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
        }

        @Override
        public ResultRecord<T> map(ResultRecord<T> r) {
            SEEN.get(run).add(new Seen<>(attempt, r));
            return r;
        }
    }

    @SuppressWarnings("unchecked")
    static <T> List<Seen<T>> seen(String run) {
        List<Seen<T>> out = new ArrayList<>();
        for (Seen<?> s : SEEN.get(run)) {
            out.add((Seen<T>) s);
        }
        return out;
    }

    /** The records of one attempt. */
    static <T> List<ResultRecord<T>> ofAttempt(List<Seen<T>> seen, int attempt) {
        List<ResultRecord<T>> out = new ArrayList<>();
        for (Seen<T> s : seen) {
            if (s.attempt() == attempt) {
                out.add(s.record());
            }
        }
        return out;
    }

    /**
     * What the recorder of a run saw over all its attempts.
     *
     * @param attempts the attempt numbers that emitted anything
     * @param completeIn by snapshot id, the number of attempts that emitted it completely
     */
    record Emitted(Set<Integer> attempts, Map<Long, Integer> completeIn) {
        /** Snapshots emitted completely by more than one attempt. */
        int reEmitted() {
            return (int) completeIn.values().stream().filter(n -> n > 1).count();
        }
    }

    /**
     * Checks the raw (at-least-once) stream of every attempt of {@code run} against {@code reference}
     * (snapshots by id): every snapshot an attempt emitted completely equals the reference's, so no
     * id is ever emitted twice with different contents; a snapshot an attempt was cut off in has
     * only reference rows; no other ids occur. {@code parts} is the number of sink subtasks.
     */
    static <T> Emitted checkEmittedSnapshots(String run, Map<Long, Map<Tuple, T>> reference, int parts) {
        List<Seen<T>> seen = seen(run);
        Set<Integer> attempts = new TreeSet<>();
        seen.forEach(s -> attempts.add(s.attempt()));
        Map<Long, Integer> completeIn = new TreeMap<>();
        Map<Long, Map<Map<Tuple, T>, List<Integer>>> versions = new TreeMap<>();
        for (int attempt : attempts) {
            List<ResultRecord<T>> records = ofAttempt(seen, attempt);
            TreeMap<Long, Map<Tuple, T>> complete = Snapshots.byId(records, parts);
            for (Map.Entry<Long, Map<Tuple, T>> e : complete.entrySet()) {
                versions.computeIfAbsent(e.getKey(), id -> new HashMap<>())
                        .computeIfAbsent(e.getValue(), rows -> new ArrayList<>())
                        .add(attempt);
                completeIn.merge(e.getKey(), 1, Integer::sum);
            }
            Set<Long> ids = new HashSet<>();
            for (ResultRecord<T> r : records) {
                ids.add(r.snapshotId());
                if (!r.isEnd()) {
                    assertThat(reference.get(r.snapshotId()))
                            .as("row of snapshot %d in attempt %d", r.snapshotId(), attempt)
                            .containsEntry(r.tuple(), r.payload());
                }
            }
            assertThat(reference.keySet())
                    .as("snapshot ids of attempt %d", attempt)
                    .containsAll(ids);
        }
        versions.forEach((id, contents) -> {
            assertThat(contents)
                    .as("contents of snapshot %d, each with the attempts that emitted it", id)
                    .hasSize(1);
            assertThat(contents.keySet().iterator().next())
                    .as(
                            "snapshot %d as attempts %s emitted it",
                            id, contents.values().iterator().next())
                    .isEqualTo(reference.get(id));
        });
        return new Emitted(attempts, completeIn);
    }

    /** The core engine's result after each of {@code counts} inserts. */
    static <T> TreeMap<Long, Map<Tuple, T>> coreSnapshots(
            MaintenancePlan plan, Semiring<T> k, List<Insert<T>> stream, Set<Long> counts) {
        IvmEngine<T> engine = Engines.create(plan, k);
        TreeMap<Long, Map<Tuple, T>> out = new TreeMap<>();
        if (counts.contains(0L)) {
            out.put(0L, new HashMap<>());
        }
        for (int i = 0; i < stream.size(); i++) {
            Insert<T> insert = stream.get(i);
            engine.insert(insert.relation(), insert.tuple(), insert.payload());
            if (counts.contains((long) i + 1)) {
                Map<Tuple, T> result = new HashMap<>();
                for (Iterator<ResultTuple<T>> it = engine.enumerate(); it.hasNext(); ) {
                    ResultTuple<T> r = it.next();
                    result.put(r.tuple(), r.payload());
                }
                out.put((long) i + 1, result);
            }
        }
        return out;
    }

    /** The naive oracle's result after the whole stream. */
    static <T> Map<Tuple, T> oracle(MaintenancePlan plan, Semiring<T> k, List<Insert<T>> stream) {
        KDatabase<T> db = new KDatabase<>(k);
        for (Insert<T> i : stream) {
            db.insert(i.relation(), i.tuple(), i.payload());
        }
        return NaiveEvaluator.evaluate(plan.query(), k, db.relations());
    }
}
