package io.flinkivm.flink.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.AccessExecutionJobVertex;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PartitionedSource} on a MiniCluster. A map chained to the source records, per run, which
 * subtask (and attempt) saw which record; record j of partition p is {@code p * 1_000_000 + j}.
 * Checked: each subtask reads exactly the partitions p ≡ i (mod P) in order; after an injected
 * failure each attempt reads a contiguous run of them and a keyed sum counts every record once;
 * after stop-with-savepoint at a known position and a restore at another parallelism every record
 * is read exactly once, in the documented assignment; perCheckpoint rate limits; empty partitions.
 */
class PartitionedSourceITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());

    /** What the recorder saw, by run. */
    static final Map<String, Queue<Seen>> SEEN = new ConcurrentHashMap<>();
    /** How many records the recorder saw between completed checkpoints, by run. */
    static final Map<String, Queue<Window>> WINDOWS = new ConcurrentHashMap<>();

    record Seen(int subtask, int attempt, long record) {}

    record Window(int subtask, long records) {}

    static List<List<Long>> partitions(int... sizes) {
        List<List<Long>> out = new ArrayList<>();
        for (int p = 0; p < sizes.length; p++) {
            List<Long> records = new ArrayList<>();
            for (int j = 0; j < sizes[p]; j++) {
                records.add(p * 1_000_000L + j);
            }
            out.add(records);
        }
        return out;
    }

    /** What subtask i of P should read: the partitions p ≡ i (mod P), in increasing p. */
    static List<Long> expected(List<List<Long>> partitions, int parallelism, int subtask) {
        List<Long> out = new ArrayList<>();
        for (int p = subtask; p < partitions.size(); p += parallelism) {
            out.addAll(partitions.get(p));
        }
        return out;
    }

    /** What a subtask saw, in order, by attempt. */
    static TreeMap<Integer, List<Long>> seen(String run, int subtask) {
        TreeMap<Integer, List<Long>> out = new TreeMap<>();
        for (Seen s : SEEN.getOrDefault(run, new ConcurrentLinkedQueue<>())) {
            if (s.subtask() == subtask) {
                out.computeIfAbsent(s.attempt(), a -> new ArrayList<>()).add(s.record());
            }
        }
        return out;
    }

    static List<Long> seenInAttempt0(String run, int subtask) {
        return seen(run, subtask).getOrDefault(0, List.of());
    }

    static Configuration config(int parallelism) {
        Configuration c = new Configuration();
        c.setString("parallelism.default", String.valueOf(parallelism));
        c.setString("pipeline.generic-types", "false");
        c.setString("restart-strategy.type", "none");
        return c;
    }

    static Configuration checkpointed(int parallelism, Path dir, String interval) {
        Configuration c = config(parallelism);
        c.setString("execution.checkpointing.interval", interval);
        c.setString("execution.checkpointing.storage", "filesystem");
        c.setString("execution.checkpointing.dir", dir.toUri().toString());
        c.setString("restart-strategy.type", "fixed-delay");
        c.setString("restart-strategy.fixed-delay.attempts", "3");
        c.setString("restart-strategy.fixed-delay.delay", "100 ms");
        return c;
    }

    /** The source, with uid "partitions", and the recorder chained to it, with uid "recorder". */
    static DataStream<Long> recorded(
            StreamExecutionEnvironment env, PartitionedSource<Long> source, Recorder recorder) {
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "partitions")
                .uid("partitions")
                .map(recorder)
                .uid("recorder");
    }

    static void run(Configuration config, PartitionedSource<Long> source, String run) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        recorded(env, source, new Recorder(run, 0)).sinkTo(new DiscardingSink<>());
        assertThat(env.execute(run).getJobExecutionResult()).isNotNull();
    }

    /** A stopped test must not leave its job holding the cluster's slots. */
    static void cancelIfRunning(JobClient client) throws Exception {
        if (!client.getJobStatus().get(30, TimeUnit.SECONDS).isGloballyTerminalState()) {
            client.cancel().get(30, TimeUnit.SECONDS);
        }
    }

    static Stream<Arguments> shapes() {
        return Stream.of(1, 2, 4).flatMap(p -> Stream.of(Arguments.of(p, 2), Arguments.of(p, 4)));
    }

    @ParameterizedTest(name = "parallelism {0}, {1} partitions")
    @MethodSource("shapes")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void eachSubtaskReadsExactlyItsPartitionsInOrder(int parallelism, int count) throws Exception {
        List<List<Long>> partitions = partitions(count == 2 ? new int[] {40, 25} : new int[] {30, 20, 25, 10});
        String run = "order P=" + parallelism + " partitions=" + count;
        run(config(parallelism), PartitionedSource.of(partitions, Types.LONG), run);
        for (int i = 0; i < parallelism; i++) {
            assertThat(seen(run, i).keySet()).isSubsetOf(0);
            assertThat(seenInAttempt0(run, i))
                    .as("subtask %d of %d", i, parallelism)
                    .isEqualTo(expected(partitions, parallelism, i));
        }
        if (parallelism == count) {
            for (int i = 0; i < parallelism; i++) {
                assertThat(seenInAttempt0(run, i)).isEqualTo(partitions.get(i));
            }
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void emptyPartitionsAndNoPartitionsAtAll() throws Exception {
        List<List<Long>> partitions = partitions(0, 3, 0, 2);
        run(config(2), PartitionedSource.of(partitions, Types.LONG), "empty partitions");
        assertThat(seenInAttempt0("empty partitions", 0)).isEmpty();
        assertThat(seenInAttempt0("empty partitions", 1))
                .containsExactly(1_000_000L, 1_000_001L, 1_000_002L, 3_000_000L, 3_000_001L);

        run(config(2), PartitionedSource.of(List.<List<Long>>of(), Types.LONG), "no partitions");
        assertThat(SEEN.get("no partitions")).isNull();
    }

    /**
     * At parallelism 4 over 2 partitions, subtasks 2 and 3 are told there is nothing for them and
     * finish (their watermark goes to +inf, as a finished source's does) while 0 and 1, stopped by
     * their rate limiters in the middle of their partitions, still run.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aReaderWithNothingToReadFinishesWhileTheOthersRun(@InjectMiniCluster MiniCluster cluster) throws Exception {
        String run = "idle readers finish";
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config(4));
        recorded(
                        env,
                        PartitionedSource.of(partitions(20, 20), Types.LONG).withRateLimit(p -> new Permits(10)),
                        new Recorder(run, 0))
                .sinkTo(new DiscardingSink<>());
        JobClient client = env.executeAsync(run);
        List<ExecutionState> expected = List.of(
                ExecutionState.RUNNING, ExecutionState.RUNNING, ExecutionState.FINISHED, ExecutionState.FINISHED);
        try {
            List<ExecutionState> states = List.of();
            while (!states.equals(expected)
                    || SEEN.getOrDefault(run, new ConcurrentLinkedQueue<>()).size() < 20) {
                Thread.sleep(20);
                states = new ArrayList<>();
                for (AccessExecutionJobVertex vertex :
                        cluster.getExecutionGraph(client.getJobID()).get().getVerticesTopologically()) {
                    Stream.of(vertex.getTaskVertices())
                            .map(AccessExecutionVertex::getExecutionState)
                            .forEach(states::add);
                }
            }
        } finally {
            cancelIfRunning(client);
        }
        assertThat(seenInAttempt0(run, 0)).isEqualTo(partitions(20).get(0).subList(0, 10));
        assertThat(seen(run, 2)).isEmpty();
        assertThat(seen(run, 3)).isEmpty();
    }

    /**
     * perCheckpoint(40) at parallelism 2: each reader emits at most 20 records between completed
     * checkpoints, so 150 records take at least 7 checkpoints per subtask.
     */
    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void perCheckpointLetsThroughItsShareBetweenCheckpoints(@TempDir Path dir) throws Exception {
        List<List<Long>> partitions = partitions(150, 150);
        String run = "rate limit";
        run(
                checkpointed(2, dir, "50 ms"),
                PartitionedSource.of(partitions, Types.LONG).withRateLimit(RateLimiterStrategy.perCheckpoint(40)),
                run);
        for (int i = 0; i < 2; i++) {
            assertThat(seenInAttempt0(run, i)).isEqualTo(partitions.get(i));
            int subtask = i;
            List<Long> windows = WINDOWS.get(run).stream()
                    .filter(w -> w.subtask() == subtask)
                    .map(Window::records)
                    .toList();
            long tail = 150 - windows.stream().mapToLong(Long::longValue).sum();
            assertThat(windows)
                    .as("records between checkpoints at subtask %d", i)
                    .allMatch(n -> n <= 20);
            assertThat(windows.size()).isGreaterThanOrEqualTo(7);
            assertThat(tail).isBetween(0L, 20L);
        }
    }

    /**
     * Subtask 0 throws right after its third completed checkpoint (fixed-delay restart). Every
     * record reaches the recorder; each attempt of each subtask reads a contiguous run of its
     * partitions' records, the first from the start, each later one from no later than where the
     * previous stopped, the last to the end; a keyed count and sum downstream count each record once.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void afterAFailureEachAttemptReadsARunAndTheKeyedSumCountsEachRecordOnce(@TempDir Path dir) throws Exception {
        List<List<Long>> partitions = partitions(250, 250, 250, 250);
        String run = "failure";
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(checkpointed(2, dir, "100 ms"));
        PartitionedSource<Long> source =
                PartitionedSource.of(partitions, Types.LONG).withRateLimit(RateLimiterStrategy.perCheckpoint(100));
        DataStream<Tuple3<Long, Long, Long>> sums = recorded(env, source, new Recorder(run, 3))
                .map(v -> Tuple3.of(v % 7, 1L, v))
                .returns(Types.TUPLE(Types.LONG, Types.LONG, Types.LONG))
                .keyBy(t -> t.f0, Types.LONG)
                .reduce((a, b) -> Tuple3.of(a.f0, a.f1 + b.f1, a.f2 + b.f2));
        Map<Long, Tuple3<Long, Long, Long>> last = new HashMap<>();
        try (CloseableIterator<Tuple3<Long, Long, Long>> it = sums.executeAndCollect(run)) {
            it.forEachRemaining(t -> last.put(t.f0, t));
        }

        Map<Long, Tuple3<Long, Long, Long>> reference = new HashMap<>();
        for (List<Long> partition : partitions) {
            for (long v : partition) {
                reference.merge(v % 7, Tuple3.of(v % 7, 1L, v), (a, b) -> Tuple3.of(a.f0, a.f1 + b.f1, a.f2 + b.f2));
            }
        }
        assertThat(last).as("final keyed count and sum").isEqualTo(reference);
        for (int i = 0; i < 2; i++) {
            TreeMap<Integer, List<Long>> attempts = seen(run, i);
            assertThat(attempts.lastKey())
                    .as("the failure restarted subtask %d", i)
                    .isEqualTo(1);
            List<Long> expected = expected(partitions, 2, i);
            int end = 0;
            for (Map.Entry<Integer, List<Long>> attempt : attempts.entrySet()) {
                List<Long> seen = attempt.getValue();
                int start = expected.indexOf(seen.get(0));
                String what = "subtask " + i + ", attempt " + attempt.getKey() + ", from record " + start;
                assertThat(seen).as(what).isEqualTo(expected.subList(start, start + seen.size()));
                assertThat(start).as(what).isBetween(attempt.getKey() == 0 ? 0 : 1, end);
                end = start + seen.size();
            }
            assertThat(end).as("subtask %d read to the end", i).isEqualTo(expected.size());
        }
    }

    static Stream<Arguments> rescales() {
        return Stream.of(Arguments.of(2, 1), Arguments.of(2, 4), Arguments.of(4, 2));
    }

    /**
     * Eight partitions at parallelism {@code before}; every reader stops after {@value #STOP_AT}
     * records, inside a partition, then stop-with-savepoint. Restored at parallelism {@code after},
     * the second job reads the rest, every record once over both jobs, in the assignment
     * {@link #afterRestore} derives from the documented rule (which 4 -> 2 tells apart from dealing
     * the splits round-robin).
     */
    @ParameterizedTest(name = "parallelism {0} -> {1}")
    @MethodSource("rescales")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void stopWithSavepointAndRestoreAtAnotherParallelismReadsEveryRecordOnce(int before, int after, @TempDir Path dir)
            throws Exception {
        List<List<Long>> partitions = partitions(30, 5, 20, 25, 10, 15, 14, 18);
        String first = "savepoint first " + before + " -> " + after;
        String second = "savepoint second " + before + " -> " + after;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config(before));
        recorded(
                        env,
                        PartitionedSource.of(partitions, Types.LONG).withRateLimit(p -> new Permits(STOP_AT)),
                        new Recorder(first, 0))
                .sinkTo(new DiscardingSink<>());
        JobClient client = env.executeAsync(first);
        String savepoint;
        try {
            while (SEEN.getOrDefault(first, new ConcurrentLinkedQueue<>()).size() < before * STOP_AT) {
                Thread.sleep(10);
            }
            savepoint = client.stopWithSavepoint(
                            false, dir.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
                    .get(30, TimeUnit.SECONDS);
            client.getJobExecutionResult().get(30, TimeUnit.SECONDS);
        } finally {
            cancelIfRunning(client);
        }
        for (int i = 0; i < before; i++) {
            List<Long> expected = expected(partitions, before, i);
            assertThat(seenInAttempt0(first, i)).isEqualTo(expected.subList(0, STOP_AT));
        }

        Configuration restore = config(after);
        restore.setString("execution.state-recovery.path", savepoint);
        StreamExecutionEnvironment env2 = StreamExecutionEnvironment.getExecutionEnvironment(restore);
        recorded(env2, PartitionedSource.of(partitions, Types.LONG), new Recorder(second, 0))
                .sinkTo(new DiscardingSink<>());
        JobClient client2 = env2.executeAsync(second);
        client2.getJobExecutionResult().get(30, TimeUnit.SECONDS);
        assertThat(client2.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);

        List<Long> both = new ArrayList<>();
        Stream.concat(SEEN.get(first).stream(), SEEN.get(second).stream()).forEach(s -> both.add(s.record()));
        List<Long> all = new ArrayList<>();
        partitions.forEach(all::addAll);
        assertThat(both).as("every record exactly once over both jobs").containsExactlyInAnyOrderElementsOf(all);
        List<List<Long>> expected = afterRestore(partitions, before, after, STOP_AT);
        for (int j = 0; j < after; j++) {
            assertThat(seenInAttempt0(second, j))
                    .as("subtask %d of %d after the restore", j, after)
                    .isEqualTo(expected.get(j));
        }
    }

    static final int STOP_AT = 12;

    /**
     * What each subtask reads after a restore at {@code after} of readers at {@code before} that
     * stopped after {@code stopAt} records each, inside a partition: the splits in flight, listed in
     * old subtask order, cut into {@code after} consecutive runs whose lengths differ by at most
     * one, longer runs first; each subtask reads its run in increasing partition index, then the
     * unassigned partitions p with p mod after == its index.
     */
    static List<List<Long>> afterRestore(List<List<Long>> partitions, int before, int after, int stopAt) {
        List<int[]> inFlight = new ArrayList<>();
        List<Integer> unassigned = new ArrayList<>();
        for (int i = 0; i < before; i++) {
            int left = stopAt;
            for (int p = i; p < partitions.size(); p += before) {
                if (left < 0) {
                    unassigned.add(p);
                } else if (left < partitions.get(p).size()) {
                    assertThat(left)
                            .as("the test stops readers inside a partition")
                            .isPositive();
                    inFlight.add(new int[] {p, left});
                    left = -1;
                } else {
                    left -= partitions.get(p).size();
                }
            }
        }
        List<List<Long>> out = new ArrayList<>();
        int next = 0;
        for (int j = 0; j < after; j++) {
            int length = inFlight.size() / after + (j < inFlight.size() % after ? 1 : 0);
            List<int[]> run = new ArrayList<>(inFlight.subList(next, next + length));
            next += length;
            run.sort((a, b) -> Integer.compare(a[0], b[0]));
            List<Long> reads = new ArrayList<>();
            for (int[] split : run) {
                reads.addAll(partitions
                        .get(split[0])
                        .subList(split[1], partitions.get(split[0]).size()));
            }
            for (int p : unassigned.stream().sorted().toList()) {
                if (p % after == j) {
                    reads.addAll(partitions.get(p));
                }
            }
            out.add(reads);
        }
        return out;
    }

    /**
     * Records what it sees; with {@code failAfter > 0}, subtask 0 throws at its first record of
     * attempt 0 after that many completed checkpoints.
     */
    static final class Recorder extends RichMapFunction<Long, Long> implements CheckpointListener {
        private static final long serialVersionUID = 1L;
        private final String run;
        private final int failAfter;
        private transient int subtask;
        private transient int attempt;
        private transient int completed;
        private transient long sinceCheckpoint;

        Recorder(String run, int failAfter) {
            this.run = run;
            this.failAfter = failAfter;
        }

        @Override
        public void open(OpenContext context) {
            TaskInfo task = getRuntimeContext().getTaskInfo();
            subtask = task.getIndexOfThisSubtask();
            attempt = task.getAttemptNumber();
        }

        @Override
        public Long map(Long record) {
            if (failAfter > 0 && subtask == 0 && attempt == 0 && completed >= failAfter) {
                throw new IllegalStateException("injected failure after checkpoint " + completed);
            }
            SEEN.computeIfAbsent(run, r -> new ConcurrentLinkedQueue<>()).add(new Seen(subtask, attempt, record));
            sinceCheckpoint++;
            return record;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            completed++;
            WINDOWS.computeIfAbsent(run, r -> new ConcurrentLinkedQueue<>()).add(new Window(subtask, sinceCheckpoint));
            sinceCheckpoint = 0;
        }
    }

    /** Grants a fixed number of permits, then never again: stops a reader at a known position. */
    static final class Permits implements RateLimiter<SourceSplit>, Serializable {
        private static final long serialVersionUID = 1L;
        private int left;

        Permits(int left) {
            this.left = left;
        }

        @Override
        public CompletionStage<Void> acquire(int n) {
            if (left < n) {
                return new CompletableFuture<>();
            }
            left -= n;
            return CompletableFuture.completedFuture(null);
        }
    }
}
