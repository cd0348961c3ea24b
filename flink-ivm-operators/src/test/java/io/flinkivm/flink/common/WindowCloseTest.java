package io.flinkivm.flink.common;

import static io.flinkivm.flink.common.Harnesses.element;
import static io.flinkivm.flink.common.Harnesses.second;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.WindowSpec;
import io.flinkivm.core.window.Windows;
import io.flinkivm.flink.border.BorderSinkOperator;
import io.flinkivm.flink.common.Harnesses.Backend;
import io.flinkivm.flink.sink.RootSinkSpec;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.flink.types.RootUpdate;
import io.flinkivm.flink.types.RootUpdateTypeInfo;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Closing windows: which keys close and when ({@link WindowClose}), and a sink keyed by a window
 * variable in harnesses on heap and RocksDB, whose state of a window is gone once the cuts' event
 * time passes the window's end, with results equal to the naive evaluator's, across a restore and a
 * rescale from 2 to 3 subtasks.
 */
class WindowCloseTest {
    static final NaturalSemiring K = NaturalSemiring.INSTANCE;
    static final OutputTag<DeadLetter> DEAD = new OutputTag<>("dead", DeadLetterTypeInfo.INSTANCE);
    static final ConjunctiveQuery QUERY = QueryParser.parse("Q(W,A) :- R(A,T,W,E)");
    static final ViewTreePlan PLAN = (ViewTreePlan) Planner.plan(QUERY, K);
    static final Windows TUMBLE =
            Windows.NONE.with(WindowAssignment.of("R", 1, WindowSpec.tumble(Duration.ofMillis(10))));
    static final WindowClose CLOSE = WindowClose.of(QUERY, TUMBLE, "W", 0);

    @Test
    void aKeyClosesWhenEveryWindowWithItsValueHasClosed() {
        assertThat(CLOSE).isEqualTo(new WindowClose(0, 1, 10));
        assertThat(CLOSE.closesAt(Tuple.of(20L)))
                .as("[20, 30) closes at watermark 29")
                .isEqualTo(29);
        assertThat(WindowClose.of(QUERY, TUMBLE, "E", 1)).isEqualTo(new WindowClose(1, 1, 0));
        // HOP and CUMULATE: a window_start closes with the largest window; lateness and units count.
        Windows hop = Windows.NONE.with(
                new WindowAssignment("R", 1, WindowSpec.hop(Duration.ofMillis(5), Duration.ofMillis(15)), 3, 1_000));
        WindowClose hopStart = WindowClose.of(QUERY, hop, "W", 0);
        assertThat(hopStart).isEqualTo(new WindowClose(0, 1_000, 18));
        assertThat(hopStart.closesAt(Tuple.of(5_000L))).isEqualTo(22);
        Windows cumulate = Windows.NONE.with(
                WindowAssignment.of("R", 1, WindowSpec.cumulate(Duration.ofMillis(4), Duration.ofMillis(12))));
        assertThat(WindowClose.of(QUERY, cumulate, "W", 0).afterMillis()).isEqualTo(12);
        // Not a window: a column of rows, a variable also outside the window columns, no windows.
        assertThat(WindowClose.of(QUERY, TUMBLE, "A", 0)).isNull();
        ConjunctiveQuery joined = QueryParser.parse("Q(W,S) :- R(A,T,W,E), S(W,S)");
        assertThat(WindowClose.of(joined, TUMBLE, "W", 0)).isNull();
        assertThat(WindowClose.of(QUERY, Windows.NONE, "W", 0)).isNull();
        // Two windowed relations on one variable: the later of their closes.
        ConjunctiveQuery windowJoin = QueryParser.parse("Q(W,A) :- R(A,T,W,E), S(A,U,W,F)");
        Windows both = TUMBLE.with(WindowAssignment.of("S", 1, WindowSpec.tumble(Duration.ofMillis(20)))
                .withLateness(5));
        assertThat(WindowClose.of(windowJoin, both, "W", 0)).isEqualTo(new WindowClose(0, 1, 25));
    }

    private static KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<Long>, EpochEnd, ResultRecord<Long>> sink(
            Backend backend, int parallelism, int subtask, OperatorSubtaskState restored) throws Exception {
        return sink(backend, parallelism, subtask, restored, false);
    }

    private static KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<Long>, EpochEnd, ResultRecord<Long>> sink(
            Backend backend, int parallelism, int subtask, OperatorSubtaskState restored, boolean finalOnly)
            throws Exception {
        RootSinkSpec<Long> spec = new RootSinkSpec<>(
                K,
                PayloadTypes.of(K),
                RootUpdateTypeInfo.of(K),
                DEAD,
                true,
                false,
                false,
                StateTtl.NONE,
                CLOSE,
                finalOnly);
        // Input 2 is broadcast (not keyed) in the job; the harness wants a key of this subtask for it.
        long own = 0;
        while (subtaskOf(own, parallelism) != subtask) {
            own++;
        }
        Tuple ownKey = Tuple.of(own);
        var h = new KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<Long>, EpochEnd, ResultRecord<Long>>(
                new BorderSinkOperator<>(PLAN, spec),
                WindowCloseTest::key,
                x -> ownKey,
                TupleTypeInfo.INSTANCE,
                Harnesses.MAX_PARALLELISM,
                parallelism,
                subtask);
        return Harnesses.open(h, backend, restored);
    }

    /** The sink's key: the root tuple's window_start. */
    private static Tuple key(RootUpdate<Long> u) {
        return u.tuple().project(new int[] {PLAN.viewTrees().get(0).schema().indexOf("W")});
    }

    /** Root tuple (W, A) in the root view's order of variables. */
    private static Tuple root(long w, long a) {
        List<String> schema = PLAN.viewTrees().get(0).schema();
        Object[] values = new Object[2];
        values[schema.indexOf("W")] = w;
        values[schema.indexOf("A")] = a;
        return Tuple.of(values);
    }

    private static int subtaskOf(long w, int parallelism) {
        return KeyGroupRangeAssignment.assignKeyToParallelOperator(Tuple.of(w), Harnesses.MAX_PARALLELISM, parallelism);
    }

    /** Ends epoch {@code epoch} (generation {@code generation}) after {@code inserts}, at event time {@code time}. */
    private static void end(
            KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<Long>, EpochEnd, ResultRecord<Long>> h,
            int generation,
            long epoch,
            long inserts,
            long time)
            throws Exception {
        Harnesses.playTwo(
                h,
                List.of(
                        second(new EpochEnd(0, generation, Harnesses.major(epoch), inserts, true, true, time)),
                        Harnesses.mark(Harnesses.major(epoch))));
    }

    /** Keys with an entry in any of the sink's states, and the window timers, summed over the harnesses. */
    /** Checkpoints taken to count keys. */
    private static long checkpoints;

    /**
     * The Flink keys in the sink's states as a checkpoint takes them: the sink holds the records it writes
     * in memory until a checkpoint, which writes them first.
     */
    private static long keys(List<? extends KeyedTwoInputStreamOperatorTestHarness<Tuple, ?, ?, ?>> hs)
            throws Exception {
        long n = 0;
        for (var h : hs) {
            h.snapshot(++checkpoints, checkpoints);
            for (String name : List.of(StateNames.JOIN_RECORDS, StateNames.JOIN_HEADS, StateNames.JOIN_DIRTY)) {
                try (var keys = ((AbstractStreamOperator<?>) h.getOperator())
                        .getKeyedStateBackend()
                        .getKeys(name, VoidNamespace.INSTANCE)) {
                    n += keys.count();
                }
            }
        }
        return n;
    }

    private static int timers(List<? extends KeyedTwoInputStreamOperatorTestHarness<Tuple, ?, ?, ?>> hs) {
        int n = 0;
        for (var h : hs) {
            n += h.numEventTimeTimers();
        }
        return n;
    }

    /** Applies a changelog's rows in order: the result it describes. */
    private static void fold(Map<Tuple, Long> result, List<?> output) {
        for (Object o : output) {
            if (o instanceof org.apache.flink.streaming.runtime.streamrecord.StreamRecord<?> s
                    && s.getValue() instanceof ResultRecord<?> r
                    && !r.isEnd()) {
                switch (r.kind()) {
                    case INSERT, UPDATE_AFTER -> result.put(r.tuple(), (Long) r.payload());
                    case DELETE -> result.remove(r.tuple());
                    default -> {}
                }
            }
        }
    }

    private static Map<Tuple, Long> expected(List<long[]> rows) {
        Map<Tuple, Long> r = new HashMap<>();
        for (long[] row : rows) {
            r.merge(Tuple.of(row[1], 0L, row[0], row[0] + 10), row[2], Long::sum);
        }
        return NaiveEvaluator.evaluate(QUERY, K, Map.of("R", r));
    }

    /**
     * Windows [0, 10) and [10, 20) on one subtask: at event time 5 both are open; at 9 [0, 10) has
     * closed and its state and timer are gone, while [10, 20) still changes; at the end of the input
     * (event time Long.MAX_VALUE) nothing is left. The changelog equals the naive evaluator's result.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void aClosedWindowsStateIsDropped(Backend backend) throws Exception {
        List<long[]> rows = List.of(new long[] {0, 1, 2}, new long[] {10, 1, 3}, new long[] {0, 2, 1});
        try (var h = sink(backend, 1, 0, null)) {
            Harnesses.playTwo(h, List.of(Harnesses.mark(Harnesses.major(0))));
            for (long[] r : rows) {
                Harnesses.playTwo(h, List.of(element(RootUpdate.of(Harnesses.major(1), 0, root(r[0], r[1]), r[2]))));
            }
            end(h, 0, 1, 3, 5);
            assertThat(keys(List.of(h))).as("two windows' keys").isGreaterThanOrEqualTo(2);
            assertThat(timers(List.of(h))).isEqualTo(2);
            long open = keys(List.of(h));
            end(h, 0, 2, 3, 9);
            assertThat(timers(List.of(h))).isEqualTo(1);
            assertThat(keys(List.of(h))).as("[0, 10) closed").isLessThan(open).isPositive();
            Harnesses.playTwo(h, List.of(element(RootUpdate.of(Harnesses.major(3), 0, root(10, 1), 4L))));
            // An update for the closed window (from a relation that is not windowed) is a dead letter.
            long closed = keys(List.of(h));
            Harnesses.playTwo(h, List.of(element(RootUpdate.of(Harnesses.major(3), 0, root(0, 3), 9L))));
            assertThat(h.getSideOutput(DEAD))
                    .extracting(r -> r.getValue().reason())
                    .containsExactly("late: the windows of key (0) closed at event time 1970-01-01T00:00:00.009Z,"
                            + " before this update (from a row of a relation that is not windowed)");
            assertThat(keys(List.of(h))).isEqualTo(closed);
            assertThat(timers(List.of(h))).isEqualTo(1);
            end(h, 0, 3, 5, 12);
            end(h, 0, 4, 5, Long.MAX_VALUE);
            assertThat(keys(List.of(h))).isZero();
            assertThat(timers(List.of(h))).isZero();
            Map<Tuple, Long> result = new HashMap<>();
            fold(result, new ArrayList<>(h.getOutput()));
            List<long[]> all = new ArrayList<>(rows);
            all.add(new long[] {10, 1, 4});
            assertThat(result).isEqualTo(expected(all));
        }
    }

    /**
     * A checkpoint with four open windows and their timers, taken at parallelism 2 and restored at 3:
     * each window's state and timer follow its key; at event time 19 the two first windows go, the
     * others take new rows, and the end of the input drops the rest. The changelogs of both runs
     * together equal the naive evaluator's result.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void openWindowsAndTheirTimersSurviveARestoreAndARescale(Backend backend) throws Exception {
        List<long[]> before = new ArrayList<>();
        for (long w = 0; w < 40; w += 10) {
            for (long a = 1; a <= 3; a++) {
                before.add(new long[] {w, a, w / 10 + a});
            }
        }
        Map<Tuple, Long> result = new HashMap<>();
        List<OperatorSubtaskState> parts = new ArrayList<>();
        for (int subtask = 0; subtask < 2; subtask++) {
            try (var h = sink(backend, 2, subtask, null)) {
                Harnesses.playTwo(h, List.of(Harnesses.mark(Harnesses.major(0))));
                for (long[] r : before) {
                    if (subtaskOf(r[0], 2) == subtask) {
                        Harnesses.playTwo(
                                h, List.of(element(RootUpdate.of(Harnesses.major(1), 0, root(r[0], r[1]), r[2]))));
                    }
                }
                end(h, 0, 1, before.size(), 5);
                fold(result, new ArrayList<>(h.getOutput()));
                parts.add(h.snapshot(1, 100));
            }
        }
        OperatorSubtaskState checkpoint =
                AbstractStreamOperatorTestHarness.repackageState(parts.toArray(new OperatorSubtaskState[0]));
        List<long[]> after = List.of(new long[] {20, 1, 5}, new long[] {30, 2, 6}, new long[] {20, 3, 1});
        List<KeyedTwoInputStreamOperatorTestHarness<Tuple, RootUpdate<Long>, EpochEnd, ResultRecord<Long>>> hs =
                new ArrayList<>();
        try {
            for (int subtask = 0; subtask < 3; subtask++) {
                hs.add(sink(
                        backend,
                        3,
                        subtask,
                        AbstractStreamOperatorTestHarness.repartitionOperatorState(
                                checkpoint, Harnesses.MAX_PARALLELISM, 2, 3, subtask)));
            }
            assertThat(timers(hs)).as("one timer per open window").isEqualTo(4);
            long open = keys(hs);
            for (int subtask = 0; subtask < 3; subtask++) {
                var h = hs.get(subtask);
                // The rescaled ingest's bridge: a new generation with every insert so far, at event time 19.
                end(h, 1, 2, before.size(), 19);
                for (long[] r : after) {
                    if (subtaskOf(r[0], 3) == subtask) {
                        Harnesses.playTwo(
                                h, List.of(element(RootUpdate.of(Harnesses.major(3), 0, root(r[0], r[1]), r[2]))));
                    }
                }
                end(h, 1, 3, before.size() + after.size(), 25);
            }
            assertThat(timers(hs)).as("[0, 10) and [10, 20) closed").isEqualTo(2);
            assertThat(keys(hs)).isLessThan(open).isPositive();
            for (var h : hs) {
                end(h, 1, 4, before.size() + after.size(), Long.MAX_VALUE);
                fold(result, new ArrayList<>(h.getOutput()));
                assertThat(h.getSideOutput(DEAD)).isNull();
            }
            assertThat(keys(hs)).isZero();
            assertThat(timers(hs)).isZero();
        } finally {
            for (var h : hs) {
                h.close();
            }
        }
        List<long[]> all = new ArrayList<>(before);
        all.addAll(after);
        assertThat(result).isEqualTo(expected(all));
    }

    /**
     * Final rows only ({@code WindowEmit.FINAL}): nothing of an open window is emitted; at the trigger
     * whose cut a window closed at, each of its groups once, as an insert with its final payload (also
     * when no insert came since the previous trigger); then its state goes. The rows add up to the naive
     * evaluator's result.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void finalRowsOnlyComeOncePerGroupWhenTheWindowCloses(Backend backend) throws Exception {
        List<long[]> rows = List.of(new long[] {0, 1, 2}, new long[] {10, 1, 3}, new long[] {0, 2, 1});
        try (var h = sink(backend, 1, 0, null, true)) {
            Harnesses.playTwo(h, List.of(Harnesses.mark(Harnesses.major(0))));
            for (long[] r : rows) {
                Harnesses.playTwo(h, List.of(element(RootUpdate.of(Harnesses.major(1), 0, root(r[0], r[1]), r[2]))));
            }
            end(h, 0, 1, 3, 5);
            assertThat(changes(h)).as("both windows open").isEmpty();
            end(h, 0, 2, 3, 9);
            assertThat(changes(h)).containsExactlyInAnyOrder("+I (0, 1) 2", "+I (0, 2) 1");
            Harnesses.playTwo(h, List.of(element(RootUpdate.of(Harnesses.major(3), 0, root(10, 1), 4L))));
            end(h, 0, 3, 4, 12);
            assertThat(changes(h)).as("[10, 20) still open").hasSize(2);
            end(h, 0, 4, 4, Long.MAX_VALUE);
            assertThat(changes(h)).containsExactlyInAnyOrder("+I (0, 1) 2", "+I (0, 2) 1", "+I (10, 1) 7");
            assertThat(keys(List.of(h))).isZero();
            Map<Tuple, Long> result = new HashMap<>();
            fold(result, new ArrayList<>(h.getOutput()));
            List<long[]> all = new ArrayList<>(rows);
            all.add(new long[] {10, 1, 4});
            assertThat(result).isEqualTo(expected(all));
        }
    }

    /** The changelog rows emitted so far, as {@code +I (w, a) payload}. */
    private static List<String> changes(KeyedTwoInputStreamOperatorTestHarness<Tuple, ?, ?, ?> h) {
        List<String> out = new ArrayList<>();
        for (Object o : h.getOutput()) {
            if (o instanceof org.apache.flink.streaming.runtime.streamrecord.StreamRecord<?> s
                    && s.getValue() instanceof ResultRecord<?> r
                    && !r.isEnd()) {
                out.add((r.kind() == ResultRecord.Kind.INSERT ? "+I " : r.kind() + " ") + r.tuple() + " "
                        + r.payload());
            }
        }
        return out;
    }
}
