package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.ResultDiff;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.WindowSpec;
import io.flinkivm.flink.common.Metrics;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.CommonTestUtils;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Windowed queries in changelog mode stopped with a savepoint while windows are open (their keys'
 * event-time timers pending) and restored at parallelism 3 after running at 2, on heap and RocksDB.
 * The source is one reader ({@link IvmTestJobs#source} over one partition) with a watermark after
 * every row ({@link WindowedStreams#punctuated}) and the first job's reader stops after {@link
 * #STOP_AT} rows, so the savepoint is taken at a known row and the ingest sees the rows and watermarks
 * in the stream's order, as {@link WindowedStreams.Oracle} does. The two jobs' changelogs, applied one
 * after the other, must be a consistent changelog ({@code +I} only for a new group, {@code -U} with the
 * payload the group has) and add up to the oracle's result over the whole stream; with {@link
 * WindowEmit#FINAL} each group comes once across both jobs, and the groups of the windows open at the
 * stop come from the second job only. Each late row is one dead letter, in the job that read it; the
 * second job's first row is late by the watermark of the stop, which only the checkpoint knows. Each
 * Flink key holding a window's state is dropped once across both jobs ({@code ivmClosedWindowKeys}):
 * the timers pending at the stop fire in the second job.
 */
class WindowsSavepointRescaleITCase {

    /** Metrics of finished jobs too: the keys each job dropped ({@link Metrics#CLOSED_WINDOW_KEYS}). */
    static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(METRICS.addToConfiguration(new Configuration()))
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());

    static final NaturalSemiring K = NaturalSemiring.INSTANCE;
    static final int ROWS = 400;
    /** Rows the first job reads before it stops. */
    static final int STOP_AT = 200;

    /**
     * Rows of each ingest subtask between triggers: few, so that the first job's last trigger comes
     * after rows of the windows still open at the stop.
     */
    static final int TRIGGER_EVERY = 5;

    static final int BEFORE = 2;
    static final int AFTER = 3;
    static final WindowSpec TUMBLE = WindowSpec.tumble(Duration.ofMillis(10));
    static final WindowSpec HOP = WindowSpec.hop(Duration.ofMillis(5), Duration.ofMillis(15));

    /** Rows that the first job's source has emitted, by run. */
    static final Map<String, AtomicLong> READ = new ConcurrentHashMap<>();
    /** Dead letters, by run. */
    static final Map<String, Queue<DeadLetter>> DEAD = new ConcurrentHashMap<>();

    static Stream<Arguments> cases() {
        String aggregate = "Q(W,A) :- bid(A,T,W,E)";
        String join = "Q(W,A) :- bid(A,T,W,E), auction(A,S,U,W,E)";
        return Stream.of(
                Arguments.of(aggregate, TUMBLE, Planner.Strategy.AUTO, WindowEmit.CHANGES, "hashmap", 11L),
                Arguments.of(aggregate, TUMBLE, Planner.Strategy.AUTO, WindowEmit.FINAL, "rocksdb", 12L),
                Arguments.of("Q(W,E) :- bid(A,T,W,E)", HOP, Planner.Strategy.AUTO, WindowEmit.CHANGES, "rocksdb", 40L),
                Arguments.of(join, TUMBLE, Planner.Strategy.AUTO, WindowEmit.FINAL, "hashmap", 14L),
                Arguments.of(join, TUMBLE, Planner.Strategy.FALLBACK, WindowEmit.FINAL, "rocksdb", 15L));
    }

    @ParameterizedTest(name = "{0} {1} {2} {3} {4}")
    @MethodSource("cases")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void stopWithOpenWindowsAndRestoreAtThree(
            String text,
            WindowSpec spec,
            Planner.Strategy strategy,
            WindowEmit emit,
            String backend,
            long seed,
            @TempDir Path dir,
            @InjectMiniCluster MiniCluster cluster)
            throws Exception {
        ConjunctiveQuery query = QueryParser.parse(text);
        IvmOptions options = IvmOptions.defaults()
                .withOutputMode(OutputMode.CHANGELOG)
                .withSnapshotEvery(TRIGGER_EVERY)
                .withStrategy(strategy)
                .withWindowEmit(emit)
                // -U carries the payload the group had: across the restore, what the first job left.
                .withUpdateBefore(emit == WindowEmit.CHANGES)
                .withWindow("bid", 1, spec);
        if (query.relations().contains("auction")) {
            options = options.withWindow(WindowAssignment.of("auction", 2, spec));
        }
        List<Insert<Long>> stream = new ArrayList<>(WindowedStreams.generate(query, new Random(seed), ROWS));
        WindowedStreams.Oracle oracle = new WindowedStreams.Oracle(query, options.windows());
        oracle.addAll(stream.subList(0, STOP_AT));
        // The stop lies inside windows that close later: their keys hold state and pending timers.
        long stopWatermark = oracle.watermark();
        Set<Long> openAtStop = new HashSet<>(oracle.openWindowStarts());
        assertThat(openAtStop)
                .as("windows that hold rows and are open at the stop (watermark %d)", stopWatermark)
                .isNotEmpty();
        List<Integer> lateBefore = oracle.late();
        // The second job's first row is late only by the watermark the first job's ingest checkpointed
        // (the source's watermark generator starts over).
        long lateTime = stopWatermark - 20;
        stream.set(STOP_AT, new Insert<>("bid", Tuple.of(0L, lateTime), 1L));
        oracle.addAll(stream.subList(STOP_AT, ROWS));
        List<Integer> lateAfter =
                oracle.late().subList(lateBefore.size(), oracle.late().size());
        assertThat(lateBefore).as("late rows before the stop").isNotEmpty();
        assertThat(lateAfter).as("late rows after the stop").contains(STOP_AT + 1);
        Map<Tuple, Long> expected = oracle.result();
        // A cut counts the rows that were not late.
        long admittedAtStop = STOP_AT - lateBefore.size();
        long admitted = ROWS - oracle.late().size();

        IvmTestJobs.Partitioned<Long> input = IvmTestJobs.Partitioned.roundRobin(stream, 1);
        String run = "windows savepoint " + text + " " + spec + " " + strategy + " " + emit + " " + backend;
        String firstRun = run + " first";
        String secondRun = run + " second";

        JobClient first = execute(
                text, options, input, BEFORE, backend, RateLimiterStrategy.perCheckpoint(STOP_AT), null, firstRun);
        while (READ.get(firstRun).get() < STOP_AT) {
            Thread.sleep(20);
        }
        // A savepoint needs every task running (RocksDB may still be opening).
        CommonTestUtils.waitForAllTaskRunning(cluster, first.getJobID(), false);
        String savepoint = first.stopWithSavepoint(
                        false, dir.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
                .get(60, TimeUnit.SECONDS);
        first.getJobExecutionResult().get();
        assertThat(READ.get(firstRun).get()).as("rows the first job read").isEqualTo(STOP_AT);

        JobClient second =
                execute(text, options, input, AFTER, backend, RateLimiterStrategy.noOp(), savepoint, secondRun);
        second.getJobExecutionResult().get();
        assertThat(second.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);

        List<ResultRecord<Long>> firstRecords = IvmTestJobs.ofAttempt(IvmTestJobs.seen(firstRun), 0);
        List<ResultRecord<Long>> secondRecords = IvmTestJobs.ofAttempt(IvmTestJobs.seen(secondRun), 0);
        assertThat(Snapshots.cuts(firstRecords).values())
                .as("cuts of the first job")
                .isNotEmpty()
                .allSatisfy(c -> assertThat(c).hasSize(BEFORE))
                .allSatisfy(c -> assertThat(sum(c)).isLessThanOrEqualTo(admittedAtStop));
        assertThat(Snapshots.cuts(secondRecords).values())
                .as("cuts of the second job: it resumed where the first stopped")
                .isNotEmpty()
                .allSatisfy(c -> assertThat(c).hasSize(AFTER))
                .allSatisfy(c -> assertThat(sum(c)).isBetween(admittedAtStop, admitted));
        assertThat(sum(Snapshots.cuts(secondRecords).lastEntry().getValue())).isEqualTo(admitted);

        // Both changelogs, one after the other, on one state.
        Map<Tuple, Long> state = new HashMap<>();
        Set<Tuple> firstChanged = apply(state, firstRecords, BEFORE, "first job");
        Map<Tuple, Long> afterFirst = new HashMap<>(state);
        Set<Tuple> secondChanged = apply(state, secondRecords, AFTER, "second job");
        assertThat(ResultDiff.compare(K, expected, List.copyOf(state.entrySet())))
                .as("both jobs' changelogs against the oracle, %s", run)
                .isEmpty();
        assertThat(expected).isNotEmpty();
        // The head starts with W, the window's start.
        Set<Tuple> ofOpenWindows = new HashSet<>();
        expected.keySet().stream()
                .filter(t -> openAtStop.contains((Long) t.get(0)))
                .forEach(ofOpenWindows::add);
        assertThat(ofOpenWindows).as("groups of windows open at the stop").isNotEmpty();
        assertThat(firstChanged).as("the first job emitted groups").isNotEmpty();
        if (emit == WindowEmit.FINAL) {
            assertThat(firstChanged).as("the first job's final groups").doesNotContainAnyElementsOf(ofOpenWindows);
            assertThat(secondChanged)
                    .as("the second job emitted the groups of the windows open at the stop")
                    .containsAll(ofOpenWindows);
            assertThat(firstRecords)
                    .filteredOn(r -> !r.isEnd())
                    .allSatisfy(r -> assertThat(r.kind()).isEqualTo(ResultRecord.Kind.INSERT));
            assertThat(secondRecords)
                    .filteredOn(r -> !r.isEnd())
                    .allSatisfy(r -> assertThat(r.kind()).isEqualTo(ResultRecord.Kind.INSERT));
        } else {
            assertThat(secondChanged)
                    .as("groups of windows open at the stop that both jobs changed")
                    .filteredOn(afterFirst::containsKey)
                    .filteredOn(ofOpenWindows::contains)
                    .isNotEmpty();
        }

        // Each key of a window's state was dropped once, by the job its windows closed in: the timers
        // pending at the stop fired in the second job.
        assertThat(closedKeys(first) + closedKeys(second))
                .as("keys dropped by the first job (%d) and the second", closedKeys(first))
                .isEqualTo(windowKeys(strategy, query, oracle));
        assertThat(closedKeys(second)).isPositive();

        assertThat(origins(DEAD.get(firstRun)))
                .as("dead letters of the first job")
                .isEqualTo(lateBefore);
        assertThat(origins(DEAD.get(secondRun)))
                .as("dead letters of the second job")
                .isEqualTo(lateAfter);
        assertThat(DEAD.get(secondRun))
                .filteredOn(d -> d.origin().equals("insert " + (STOP_AT + 1)))
                .singleElement()
                .extracting(DeadLetter::reason)
                .as("the late row right after the restore, at the watermark of the stop")
                .isEqualTo(options.windows().of("bid").lateReason(lateTime, stopWatermark));
    }

    /**
     * Applies a job's triggers, in id order, to {@code state} as a strict changelog reader does:
     * {@code +I} adds a tuple that is not there, {@code -U} names a tuple with the payload it has,
     * {@code +U} sets a tuple that is there, {@code -D} removes one. Every trigger is complete (an
     * end marker from each of {@code parts} sink subtasks). Returns the tuples changed.
     */
    private static Set<Tuple> apply(Map<Tuple, Long> state, List<ResultRecord<Long>> records, int parts, String job) {
        Set<Long> complete = Snapshots.changelogStates(records, parts).keySet();
        List<ResultRecord<Long>> rows =
                new ArrayList<>(records.stream().filter(r -> !r.isEnd()).toList());
        rows.sort(Comparator.comparingLong(ResultRecord::snapshotId));
        Set<Tuple> changed = new HashSet<>();
        for (ResultRecord<Long> r : rows) {
            String what = job + ": " + r;
            assertThat(complete).as("trigger of %s", what).contains(r.snapshotId());
            switch (r.kind()) {
                case INSERT ->
                    assertThat(state.put(r.tuple(), r.payload()))
                            .as("%s: a new group", what)
                            .isNull();
                case UPDATE_BEFORE ->
                    assertThat(state).as("%s: the payload before", what).containsEntry(r.tuple(), r.payload());
                case UPDATE_AFTER ->
                    assertThat(state.put(r.tuple(), r.payload()))
                            .as("%s: a group that is there", what)
                            .isNotNull();
                case DELETE ->
                    assertThat(state.remove(r.tuple()))
                            .as("%s: a group that is there", what)
                            .isEqualTo(r.payload());
                default -> throw new AssertionError("not a changelog row: " + what);
            }
            changed.add(r.tuple());
        }
        return changed;
    }

    /** The keys a job dropped when their windows closed, over all its operators and subtasks. */
    private static long closedKeys(JobClient job) {
        return METRICS.findMetrics(job.getJobID(), ".*" + Metrics.CLOSED_WINDOW_KEYS).values().stream()
                .mapToLong(m -> ((Counter) m).getCount())
                .sum();
    }

    /**
     * The Flink keys that hold a window's state, as {@code explain} lays the job out: the sink's groups
     * (W, A) or (W, E); for the window join also the view tree's (W, A) of every row taken; the
     * fallback keeps only the rows, by (W, A).
     */
    private static long windowKeys(Planner.Strategy strategy, ConjunctiveQuery query, WindowedStreams.Oracle oracle) {
        Set<Tuple> rowKeys = new HashSet<>();
        oracle.relation("bid").keySet().forEach(t -> rowKeys.add(Tuple.of(t.get(2), t.get(0))));
        oracle.relation("auction").keySet().forEach(t -> rowKeys.add(Tuple.of(t.get(3), t.get(0))));
        if (strategy == Planner.Strategy.FALLBACK) {
            return rowKeys.size();
        }
        return oracle.result().size() + (query.relations().size() > 1 ? rowKeys.size() : 0);
    }

    private static long sum(long[] cut) {
        long s = 0;
        for (long c : cut) {
            s += c;
        }
        return s;
    }

    /** The stream positions (from 1) of the dead letters' rows, sorted ("insert n" origins). */
    private static List<Integer> origins(Queue<DeadLetter> letters) {
        return letters.stream()
                .map(d -> Integer.parseInt(d.origin().substring("insert ".length())))
                .sorted()
                .toList();
    }

    private static JobClient execute(
            String text,
            IvmOptions options,
            IvmTestJobs.Partitioned<Long> input,
            int parallelism,
            String backend,
            RateLimiterStrategy<?> rate,
            String savepoint,
            String run)
            throws Exception {
        Configuration c = FlinkIvmITCase.config(backend, parallelism);
        c.setString("restart-strategy.type", "none");
        if (savepoint != null) {
            c.setString("execution.state-recovery.path", savepoint);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
        READ.put(run, new AtomicLong());
        DEAD.put(run, new ConcurrentLinkedQueue<>());
        DataStream<InputRecord<Long>> rows = IvmTestJobs.source(env, input, FlinkIvm.inputType(K), rate)
                .map(new Count(run))
                .returns(FlinkIvm.inputType(K))
                .setParallelism(1)
                .uid("test-count")
                .assignTimestampsAndWatermarks(WindowedStreams.punctuated(options))
                .setParallelism(1)
                .uid("test-watermarks");
        IvmJob<Long> job = FlinkIvm.maintain(rows, text, K, options);
        assertThat(job.explain()).contains("collected by window (W)");
        IvmTestJobs.record(job.results(), run);
        job.deadLetters()
                .map(new Dead(run))
                .returns(DeadLetterTypeInfo.INSTANCE)
                .setParallelism(1)
                .uid("test-dead-letters")
                .sinkTo(new DiscardingSink<>())
                .setParallelism(1);
        return env.executeAsync(run);
    }

    /** Counts the rows the source emitted in {@link #READ}. */
    private record Count(String run) implements MapFunction<InputRecord<Long>, InputRecord<Long>> {
        @Override
        public InputRecord<Long> map(InputRecord<Long> r) {
            READ.get(run).incrementAndGet();
            return r;
        }
    }

    /** Records dead letters in {@link #DEAD}. */
    private record Dead(String run) implements MapFunction<DeadLetter, DeadLetter> {
        @Override
        public DeadLetter map(DeadLetter d) {
            DEAD.get(run).add(d);
            return d;
        }
    }
}
