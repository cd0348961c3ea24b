package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.ResultDiff;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.WindowSpec;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
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
        List<Insert<Long>> stream = WindowedStreams.generate(query, new Random(seed), 400);
        IvmOptions options = base.withWindow("bid", 1, spec);
        if (auctionsWindowed) {
            options = options.withWindow(WindowAssignment.of("auction", 2, spec));
        }
        WindowedStreams.Oracle oracle = new WindowedStreams.Oracle(query, options.windows()).addAll(stream);
        int late = oracle.late().size();
        assertThat(late).as("late rows in the stream").isPositive();
        Map<Tuple, Long> expected = oracle.result();

        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(FlinkIvmITCase.config(backend, 2));
        DataStream<InputRecord<Long>> input = env.fromData(
                        IvmTestJobs.records(stream), FlinkIvm.inputType(NaturalSemiring.INSTANCE))
                .setParallelism(1)
                .assignTimestampsAndWatermarks(WindowedStreams.punctuated(options))
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
