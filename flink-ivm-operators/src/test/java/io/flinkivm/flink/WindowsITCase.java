package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.testing.ResultDiff;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.WindowSpec;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Windowed relations on a MiniCluster at parallelism 2, heap and RocksDB: window aggregates (TUMBLE,
 * HOP, CUMULATE), a window join and a windowed table joined with one that is not, over rows out of
 * order within the watermark's bound and late rows beyond it. The result equals the naive evaluator's
 * over every row's windows that were open when it came, and each row whose windows had all closed is
 * one dead letter.
 */
class WindowsITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());

    /** How far a row's time may trail the largest time before it without being late, in milliseconds. */
    static final long BOUND = 5;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        List<Object[]> queries = List.of(
                new Object[] {"Q(W,A) :- bid(A,T,W,E)", WindowSpec.tumble(Duration.ofMillis(10)), false},
                new Object[] {
                    "Q(W,E) :- bid(A,T,W,E)", WindowSpec.hop(Duration.ofMillis(5), Duration.ofMillis(15)), false
                },
                new Object[] {
                    "Q(W,E,A) :- bid(A,T,W,E)", WindowSpec.cumulate(Duration.ofMillis(4), Duration.ofMillis(12)), false
                },
                new Object[] {
                    "Q(W,A) :- bid(A,T,W,E), auction(A,S,U,W,E)", WindowSpec.tumble(Duration.ofMillis(10)), true
                },
                new Object[] {"Q(W,S) :- bid(A,T,W,E), seller(A,S)", WindowSpec.tumble(Duration.ofMillis(10)), false});
        long seed = 1;
        for (Object[] q : queries) {
            for (String backend : List.of("hashmap", "rocksdb")) {
                out.add(Arguments.of(q[0], q[1], q[2], backend, seed++));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} {3}")
    @MethodSource("cases")
    void resultsEqualTheOracleOverRowsThatAreNotLate(
            String text, WindowSpec spec, boolean auctionsWindowed, String backend, long seed) throws Exception {
        run(text, spec, auctionsWindowed, backend, seed, IvmOptions.defaults());
    }

    /**
     * Queries over windowed relations only, in changelog mode with a trigger every 20 inserts per
     * ingest subtask, so that windows close while rows still come: the sink (keyed by the window)
     * drops a closed window's state after its last change was emitted, and the changelog still adds up
     * to the oracle's result, on the p-hierarchical plan and on the fallback.
     */
    @ParameterizedTest(name = "{0} {1} {3} {5} {6}")
    @MethodSource("collected")
    void closedWindowsAreCollectedAndTheChangelogStaysExact(
            String text,
            WindowSpec spec,
            boolean auctionsWindowed,
            String backend,
            long seed,
            Planner.Strategy strategy,
            WindowEmit emit)
            throws Exception {
        List<ResultRecord<Long>> records = run(
                text,
                spec,
                auctionsWindowed,
                backend,
                seed,
                IvmOptions.defaults()
                        .withOutputMode(OutputMode.CHANGELOG)
                        .withSnapshotEvery(20)
                        .withStrategy(strategy)
                        .withWindowEmit(emit));
        if (emit == WindowEmit.FINAL) {
            // Each group once, final: an insert, never an update.
            List<ResultRecord<Long>> rows =
                    records.stream().filter(r -> !r.isEnd()).toList();
            assertThat(rows).isNotEmpty().allSatisfy(r -> assertThat(r.kind()).isEqualTo(ResultRecord.Kind.INSERT));
            assertThat(rows.stream().map(ResultRecord::tuple).distinct().count())
                    .isEqualTo(rows.size());
        }
    }

    static Stream<Arguments> collected() {
        List<Arguments> out = new ArrayList<>();
        List<Arguments> all = cases().toList();
        for (int i = 0; i < all.size(); i++) {
            Object[] a = all.get(i).get();
            if (((String) a[0]).contains("seller")) {
                continue;
            }
            Planner.Strategy strategy = i % 4 < 2 ? Planner.Strategy.AUTO : Planner.Strategy.FALLBACK;
            out.add(Arguments.of(a[0], a[1], a[2], a[3], a[4], strategy, WindowEmit.CHANGES));
            if (i % 2 == 0) {
                out.add(Arguments.of(a[0], a[1], a[2], a[3], a[4], strategy, WindowEmit.FINAL));
            }
        }
        return out.stream();
    }

    /** Runs the query at parallelism 2, checks its result and dead letters, and returns its records. */
    private List<ResultRecord<Long>> run(
            String text, WindowSpec spec, boolean auctionsWindowed, String backend, long seed, IvmOptions base)
            throws Exception {
        ConjunctiveQuery query = QueryParser.parse(text);
        Random random = new Random(seed);
        List<InputRecord<Long>> rows = new ArrayList<>();
        long clock = 1000;
        for (int i = 0; i < 400; i++) {
            clock += random.nextInt(3);
            // Mostly within the bound, sometimes (one row in ten) up to four bounds behind.
            long t =
                    clock - (random.nextInt(10) == 0 ? random.nextInt((int) (4 * BOUND)) : random.nextInt((int) BOUND));
            long a = random.nextInt(6);
            int which = query.relations().size() == 1 ? 0 : random.nextInt(3);
            if (which == 0 || query.relations().size() == 1) {
                rows.add(InputRecord.insert("bid", Tuple.of(a, t), 1L + random.nextInt(5)));
            } else if (query.relations().contains("auction")) {
                rows.add(InputRecord.insert("auction", Tuple.of(a, 100L + a, t), 1L));
            } else if (i < 40) {
                rows.add(InputRecord.insert("seller", Tuple.of(a, 100L + a % 3), 1L));
            }
        }
        IvmOptions options = base.withWindow("bid", 1, spec);
        if (auctionsWindowed) {
            options = options.withWindow(WindowAssignment.of("auction", 2, spec));
        }
        // The oracle: the watermark before each row is the largest time before it - BOUND - 1.
        Map<String, Map<Tuple, Long>> database = new HashMap<>();
        long watermark = Long.MIN_VALUE;
        long largest = Long.MIN_VALUE;
        int late = 0;
        long[] starts = new long[spec.maxWindows()];
        long[] ends = new long[spec.maxWindows()];
        for (InputRecord<Long> r : rows) {
            WindowAssignment w = options.windows().of(r.relation());
            Map<Tuple, Long> relation = database.computeIfAbsent(r.relation(), x -> new HashMap<>());
            if (w == null) {
                relation.merge(r.tuple(), r.payload(), Long::sum);
                continue;
            }
            long t = (Long) r.tuple().get(w.timeColumn());
            if (w.isLate(t, watermark)) {
                late++;
            } else {
                int n = spec.assign(t, starts, ends);
                for (int i = 0; i < n; i++) {
                    if (w.isOpen(ends[i], watermark)) {
                        relation.merge(w.withWindow(r.tuple(), starts[i], ends[i]), r.payload(), Long::sum);
                    }
                }
            }
            largest = Math.max(largest, t);
            watermark = largest - BOUND - 1;
        }
        assertThat(late).as("late rows in the stream").isPositive();
        Map<Tuple, Long> expected = NaiveEvaluator.evaluate(query, NaturalSemiring.INSTANCE, database);

        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(FlinkIvmITCase.config(backend, 2));
        DataStream<InputRecord<Long>> input = env.fromData(rows, FlinkIvm.inputType(NaturalSemiring.INSTANCE))
                .setParallelism(1)
                .assignTimestampsAndWatermarks(punctuated(options))
                .setParallelism(1);
        IvmJob<Long> job = FlinkIvm.maintain(input, text, NaturalSemiring.INSTANCE, options);
        assertThat(job.explain())
                .contains(
                        "Windows:\n  bid: " + spec + " on column 1",
                        // Joined with sellers, the fallback is keyed by HyperCube cells: no window in its key.
                        text.contains("seller") ? "keyed by window (W), but kept" : "collected by window (W)");
        List<ResultRecord<Long>> records = new ArrayList<>();
        List<DeadLetter> dead = new ArrayList<>();
        try (CloseableIterator<ResultRecord<Long>> results = job.results().collectAsync();
                CloseableIterator<DeadLetter> letters = job.deadLetters().collectAsync()) {
            env.execute("windows " + text);
            results.forEachRemaining(records::add);
            letters.forEachRemaining(dead::add);
        }
        assertThat(dead)
                .hasSize(late)
                .allSatisfy(d -> assertThat(d.reason())
                        .startsWith("late: window [1970-01-01T")
                        .contains(") closed at watermark 1970-01-01T"));
        Map<Tuple, Long> result = options.outputMode() == OutputMode.CHANGELOG
                ? Snapshots.changelogStates(records, job.results().getParallelism())
                        .lastEntry()
                        .getValue()
                : Snapshots.latest(records, job.results().getParallelism());
        assertThat(ResultDiff.compare(NaturalSemiring.INSTANCE, expected, List.copyOf(result.entrySet())))
                .as("%s\n%s", text, job.explain())
                .isEmpty();
        return records;
    }

    /** A watermark after every row: the largest time so far - BOUND - 1 (deterministic, unlike periodic ones). */
    static WatermarkStrategy<InputRecord<Long>> punctuated(IvmOptions options) {
        Map<String, Integer> timeColumns = new HashMap<>();
        options.windows().assignments().forEach(w -> timeColumns.put(w.relation(), w.timeColumn()));
        return WatermarkStrategy.<InputRecord<Long>>forGenerator(c -> new PerRow())
                .withTimestampAssigner((r, previous) -> timeColumns.containsKey(r.relation())
                        ? (Long) r.tuple().get(timeColumns.get(r.relation()))
                        : previous);
    }

    /** Emits the largest timestamp so far - BOUND - 1 after each row. */
    static final class PerRow implements WatermarkGenerator<InputRecord<Long>> {
        private long largest = Long.MIN_VALUE;

        @Override
        public void onEvent(InputRecord<Long> event, long timestamp, WatermarkOutput output) {
            if (timestamp != Long.MIN_VALUE && timestamp > largest) {
                largest = timestamp;
                output.emitWatermark(new Watermark(largest - BOUND - 1));
            }
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {}
    }

    @Test
    void refusesWindowsThatDoNotFitTheQuery() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        DataStream<InputRecord<Long>> input = env.fromData(
                List.of(InputRecord.insert("bid", Tuple.of(1L, 2L), 1L)), FlinkIvm.inputType(NaturalSemiring.INSTANCE));
        IvmOptions tumble = IvmOptions.defaults().withWindow("bid", 1, WindowSpec.tumble(Duration.ofSeconds(1)));
        assertThatThrownBy(() -> FlinkIvm.maintain(input, "Q(A) :- bid(A,T)", NaturalSemiring.INSTANCE, tumble))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("bid is windowed on its column 1, so its atoms need its rows' columns and then"
                        + " window_start and window_end");
        assertThatThrownBy(() -> FlinkIvm.maintain(
                        input, "Q(W,S) :- bid(A,T,W,E), seller(A,S) KEY seller(A)", NaturalSemiring.INSTANCE, tumble))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("windowed relations with a plan under keys");
        IvmOptions emitFinal = tumble.withWindowEmit(WindowEmit.FINAL);
        assertThatThrownBy(
                        () -> FlinkIvm.maintain(fresh(), "Q(W,A) :- bid(A,T,W,E)", NaturalSemiring.INSTANCE, emitFinal))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "withWindowEmit(FINAL) shapes a changelog: set withOutputMode(OutputMode.CHANGELOG)");
        assertThatThrownBy(() -> FlinkIvm.maintain(
                        fresh(),
                        "Q(W,S) :- bid(A,T,W,E), seller(A,S)",
                        NaturalSemiring.INSTANCE,
                        emitFinal.withOutputMode(OutputMode.CHANGELOG)))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("withWindowEmit(FINAL) needs a result collected by window");
    }

    /** A fresh environment's input (a failed build leaves its transformations in its environment). */
    private static DataStream<InputRecord<Long>> fresh() {
        return StreamExecutionEnvironment.getExecutionEnvironment()
                .fromData(
                        List.of(InputRecord.insert("bid", Tuple.of(1L, 2L), 1L)),
                        FlinkIvm.inputType(NaturalSemiring.INSTANCE));
    }
}
