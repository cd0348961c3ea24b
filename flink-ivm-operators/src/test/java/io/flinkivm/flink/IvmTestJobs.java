package io.flinkivm.flink;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.engine.ResultTuple;
import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.Insert;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Pieces of the MiniCluster jobs that check checkpoints, failures and savepoints: a replayable
 * throttled source, an injected failure, a recorder that sees every result record of every attempt
 * (at least once), and the expected snapshots from the core engine and the naive oracle.
 */
final class IvmTestJobs {
    private IvmTestJobs() {
    }

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
     * The records in order from a checkpointed source at parallelism 1 (a restore resumes at the
     * checkpointed position), throttled by {@code rate}: e.g. {@link RateLimiterStrategy#perCheckpoint}
     * guarantees checkpoints in the middle of the stream however slow the machine is.
     */
    static <T> DataStream<InputRecord<T>> source(StreamExecutionEnvironment env, List<InputRecord<T>> records,
            TypeInformation<InputRecord<T>> type, RateLimiterStrategy rate) {
        return env.fromSource(new DataGeneratorSource<>(new FromList<>(records), records.size(), rate, type),
                        WatermarkStrategy.noWatermarks(), "inserts")
                .setParallelism(1)
                .uid("test-inserts");
    }

    /** The i-th record of a list. */
    static final class FromList<T> implements GeneratorFunction<Long, InputRecord<T>> {
        private static final long serialVersionUID = 1L;
        private final ArrayList<InputRecord<T>> records;

        FromList(List<InputRecord<T>> records) {
            this.records = new ArrayList<>(records);
        }

        @Override
        public InputRecord<T> map(Long index) {
            return records.get(Math.toIntExact(index));
        }
    }

    /** Failures thrown, by test run: "attempt a after n records". */
    static final Map<String, Queue<String>> FAILURES = new ConcurrentHashMap<>();

    /**
     * Passes records on; in attempt a &lt; {@code failAfter.length}, once a checkpoint has completed in
     * that attempt, throws when it has seen {@code failAfter[a]} records (counted from the start of
     * the attempt). Before throwing it waits (up to 10 s) until the recorder of {@code run} has seen
     * this attempt emit the last snapshot triggered before the failing record, so that a restore
     * from an earlier checkpoint emits that snapshot again. Records must have origins "insert n".
     */
    static final class FailAfter<T> extends RichMapFunction<InputRecord<T>, InputRecord<T>> implements CheckpointListener {
        private static final long serialVersionUID = 1L;
        private final String run;
        private final long[] failAfter;
        private final long snapshotEvery;
        private final int parts;
        private transient int attempt;
        private transient long seen;
        private transient boolean checkpointed;

        FailAfter(String run, long[] failAfter, long snapshotEvery, int parts) {
            this.run = run;
            this.failAfter = failAfter.clone();
            this.snapshotEvery = snapshotEvery;
            this.parts = parts;
        }

        @Override
        public void open(OpenContext context) {
            attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
        }

        @Override
        public InputRecord<T> map(InputRecord<T> r) throws Exception {
            seen++;
            if (attempt < failAfter.length && checkpointed && seen >= failAfter[attempt]) {
                long insert = Long.parseLong(r.origin().substring("insert ".length()));
                long lastSnapshot = (insert - 1) / snapshotEvery * snapshotEvery;
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (lastSnapshot > 0 && endMarkers(lastSnapshot) < parts && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                FAILURES.computeIfAbsent(run, k -> new ConcurrentLinkedQueue<>())
                        .add("attempt " + attempt + " at insert " + insert + " after " + seen + " records");
                throw new InjectedFailure("injected failure in attempt " + attempt + " at insert " + insert);
            }
            return r;
        }

        private long endMarkers(long snapshot) {
            Queue<Seen<?>> recorded = SEEN.get(run);
            return recorded == null ? 0 : recorded.stream()
                    .filter(s -> s.attempt() == attempt && s.record().isEnd() && s.record().snapshotId() == snapshot)
                    .count();
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            checkpointed = true;
        }
    }

    static final class InjectedFailure extends Exception {
        private static final long serialVersionUID = 1L;

        InjectedFailure(String message) {
            super(message);
        }
    }

    /** A result record as the recorder saw it, with the attempt number of the recording subtask. */
    record Seen<T>(int attempt, ResultRecord<T> record) {
    }

    /** Everything recorders saw, by test run. */
    static final Map<String, Queue<Seen<?>>> SEEN = new ConcurrentHashMap<>();

    /** Records every result record (of every attempt, so at least once) under {@code run}. */
    static <T> void record(DataStream<ResultRecord<T>> results, String run) {
        SEEN.put(run, new ConcurrentLinkedQueue<>());
        results.map(new Recorder<>(run))
                .returns(results.getType())
                .setParallelism(1)
                .uid("test-recorder-" + run)
                .sinkTo(new DiscardingSink<>())
                .setParallelism(1);
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

    /** The core engine's result after each of {@code counts} inserts. */
    static <T> TreeMap<Long, Map<Tuple, T>> coreSnapshots(MaintenancePlan plan, Semiring<T> k, List<Insert<T>> stream,
            Set<Long> counts) {
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
