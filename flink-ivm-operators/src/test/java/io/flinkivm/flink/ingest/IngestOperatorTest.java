package io.flinkivm.flink.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.partition.HyperCube;
import io.flinkivm.core.partition.Shares;
import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.WindowSpec;
import io.flinkivm.core.window.Windows;
import io.flinkivm.flink.common.Epochs;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.Delta;
import io.flinkivm.flink.types.DeltaTypeInfo;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.EpochEndTypeInfo;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.RootUpdate;
import io.flinkivm.flink.types.RootUpdateTypeInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;

/** The ingest operator in a harness: validation, routing, and the subtask's epochs. Natural numbers. */
class IngestOperatorTest {
    static final NaturalSemiring K = NaturalSemiring.INSTANCE;
    /** Trees V[A] (R, S) and V[A,C] (T, no state below its root: straight to the sink). */
    static final MaintenancePlan SHARED = Planner.plan(QueryParser.parse("Q(A,C) :- R(A,B), S(A,B,D), T(A,C,E)"), K);
    /** A self-join (each atom its own tree) with a selection. */
    static final MaintenancePlan SELF = Planner.plan(QueryParser.parse("Q(A) :- R(A,B), R(A,C), S(A,'x')"), K);
    /** Not p-hierarchical: the fallback, over HyperCube cells of A and C. */
    static final MaintenancePlan PATH = Planner.plan(QueryParser.parse("Q(A,C) :- R(A,B), S(B,C)"), K);

    static final OutputTag<EpochEnd> EPOCHS = new OutputTag<>("epochs", EpochEndTypeInfo.INSTANCE);

    /** A subtask's first epochs when every end may ask for a snapshot: the first of majors 0, 1, 2, 3 ({@link Epochs}). */
    static final long E1 = Epochs.FIRST;

    static final long E2 = Epochs.nextMajor(E1);
    static final long E3 = Epochs.nextMajor(E2);
    static final long E4 = Epochs.nextMajor(E3);

    /** The number under which an end that may ask for a snapshot reports {@code epoch}. */
    static long end(long epoch) {
        return Epochs.endOfMajor(epoch);
    }

    /** Trees V[A] (R, S) and V[C] (T, straight to the sink): no variable in both, so the sink has cells A=2 C=2. */
    static final MaintenancePlan CELLS = Planner.plan(QueryParser.parse("Q(A,C) :- R(A,B), S(A,B,D), T(C,E)"), K);

    /** Per tree, its tag, or null for a tree whose root updates go straight to the sink. */
    static List<OutputTag<Delta<Long>>> treeTags(MaintenancePlan plan) {
        List<OutputTag<Delta<Long>>> tags = new ArrayList<>();
        if (plan instanceof ViewTreePlan trees) {
            for (ViewTree t : trees.viewTrees()) {
                tags.add(
                        IngestOperator.isDirect(trees, t)
                                ? null
                                : new OutputTag<>("tree-" + t.index(), DeltaTypeInfo.of(K)));
            }
        }
        return tags;
    }

    static final OutputTag<Delta<Long>> FALLBACK = new OutputTag<>("fallback", DeltaTypeInfo.of(K));
    static final OutputTag<RootUpdate<Long>> DIRECT = new OutputTag<>("direct", RootUpdateTypeInfo.of(K));
    static final Shares A2C2 = HyperCube.shares(List.of("A", "C"), List.of(List.of("A"), List.of("C")), 4);

    static IngestRoutes<Long> routes(MaintenancePlan plan) {
        if (plan instanceof FallbackPlan) {
            return IngestRoutes.fallback(FALLBACK, A2C2, 4, 128, List.of());
        }
        List<OutputTag<Delta<Long>>> tags = treeTags(plan);
        return IngestRoutes.trees(tags, tags.contains(null) ? DIRECT : null, plan == CELLS ? A2C2 : null, 4, 128);
    }

    static OneInputStreamOperatorTestHarness<InputRecord<Long>, DeadLetter> harness(
            MaintenancePlan plan, long every, long period, int parallelism, int subtask, OperatorSubtaskState restored)
            throws Exception {
        return harness(plan, every, 0, period, parallelism, subtask, restored, 1);
    }

    static OneInputStreamOperatorTestHarness<InputRecord<Long>, DeadLetter> harness(
            MaintenancePlan plan,
            long every,
            long progress,
            long period,
            int parallelism,
            int subtask,
            OperatorSubtaskState restored,
            int miniBatch)
            throws Exception {
        var h = new OneInputStreamOperatorTestHarness<>(
                new IngestOperator<>(
                        plan, K, routes(plan), EPOCHS, every, progress, period, miniBatch, 0, Windows.NONE),
                128,
                parallelism,
                subtask);
        if (restored != null) {
            h.initializeState(restored);
        }
        h.open();
        return h;
    }

    static InputRecord<Long> insert(String relation, long payload, Object... values) {
        return InputRecord.insert(relation, Tuple.of(values), payload);
    }

    @SuppressWarnings("unchecked")
    static <X> List<X> side(AbstractStreamOperatorTestHarness<?> h, OutputTag<X> tag) {
        List<X> out = new ArrayList<>();
        if (h.getSideOutput(tag) != null) {
            for (Object o : h.getSideOutput(tag)) {
                out.add(((StreamRecord<X>) o).getValue());
            }
        }
        return out;
    }

    static List<Object> watermarks(AbstractStreamOperatorTestHarness<?> h) {
        return h.getOutput().stream()
                .filter(o -> o instanceof Watermark)
                .map(o -> (Object) o)
                .toList();
    }

    @Test
    void epochsEndByCountOnControlRecordsAndAtTheEnd() throws Exception {
        try (var h = harness(SHARED, 2, 0, 1, 0, null)) {
            h.processElement(new StreamRecord<>(insert("R", 1, 1L, 1L)));
            h.processElement(new StreamRecord<>(insert("S", 2, 1L, 1L, 1L)));
            h.processElement(new StreamRecord<>(insert("T", 3, 1L, 1L, 1L)));
            h.processElement(new StreamRecord<>(InputRecord.snapshotRequest()));
            h.processElement(new StreamRecord<>(insert("R", 4, 2L, 2L)));
            h.processWatermark(new Watermark(17)); // event time: ends no epoch
            h.endInput();
            h.processWatermark(Watermark.MAX_WATERMARK);
            // Each end carries the event time at its end; the end of the input closes every window.
            assertThat(side(h, EPOCHS))
                    .containsExactly(
                            new EpochEnd(0, 0, end(E1), 2, true, true),
                            new EpochEnd(0, 0, end(E2), 3, true, true),
                            new EpochEnd(0, 0, end(E3), 4, true, true, Long.MAX_VALUE));
            assertThat(watermarks(h))
                    .containsExactly(
                            new Watermark(0),
                            new Watermark(end(E1)),
                            new Watermark(end(E2)),
                            new Watermark(end(E3)),
                            Watermark.MAX_WATERMARK);
            List<Delta<Long>> v0 = side(h, treeTags(SHARED).get(0));
            assertThat(v0).extracting(Delta::epoch).containsExactly(E1, E1, E3);
            assertThat(v0).extracting(Delta::key).containsExactly(Tuple.of(1L, 1L), Tuple.of(1L, 1L), Tuple.of(2L, 2L));
            assertThat(v0)
                    .extracting(Delta::insert)
                    .containsExactly(Epochs.insertId(0, 1), Epochs.insertId(0, 2), Epochs.insertId(0, 5));
            assertThat(side(h, DIRECT))
                    .as("T's tree has no state below its root")
                    .containsExactly(RootUpdate.of(E2, 1, Tuple.of(1L, 1L), 3L));
        }
    }

    /**
     * A windowed relation: a HOP row goes into its windows that are open at the input's watermark, one
     * insert each; a row whose windows all closed, a row without a time and one of the wrong arity are
     * dead letters.
     */
    @Test
    void windowedRowsGoIntoTheirOpenWindowsAndLateOnesAreDeadLetters() throws Exception {
        MaintenancePlan plan = Planner.plan(QueryParser.parse("Q(W,A) :- R(A,T,W,E)"), K);
        Windows windows = Windows.NONE.with(
                WindowAssignment.of("R", 1, WindowSpec.hop(Duration.ofMillis(5), Duration.ofMillis(10))));
        try (var h = new OneInputStreamOperatorTestHarness<>(
                new IngestOperator<>(plan, K, routes(plan), EPOCHS, 0, 0, 0, 1, 0, windows), 128, 1, 0)) {
            h.open();
            h.processElement(new StreamRecord<>(insert("R", 2, 1L, 12L)));
            h.processWatermark(new Watermark(14));
            h.processElement(new StreamRecord<>(insert("R", 3, 1L, 12L)));
            h.processElement(new StreamRecord<>(insert("R", 4, 1L, 3L)));
            h.processElement(new StreamRecord<>(insert("R", 5, 1L, "noon")));
            h.processElement(new StreamRecord<>(insert("R", 6, 1L, 12L, 10L, 20L)));
            List<RootUpdate<Long>> out = side(h, DIRECT);
            // Before the watermark: [5, 15) and [10, 20); after it, [5, 15) has closed.
            assertThat(out)
                    .extracting(u -> List.of(u.tuple().toArray()) + " " + u.payload())
                    .containsExactly("[5, 1] 2", "[10, 1] 2", "[10, 1] 3");
            assertThat(h.extractOutputValues())
                    .extracting(DeadLetter::reason)
                    .containsExactly(
                            "late: window [1970-01-01T00:00:00Z, 1970-01-01T00:00:00.010Z) closed at watermark"
                                    + " 1970-01-01T00:00:00.014Z",
                            "the time column 1 of R holds noon (String), not a timestamp (a long)",
                            "relation R is windowed: its rows have 2 values (its atoms add window_start and"
                                    + " window_end), got 4");
            // An epoch's end carries the event-time watermark to the keyed operators.
            h.processElement(new StreamRecord<>(InputRecord.snapshotRequest()));
            assertThat(side(h, EPOCHS)).extracting(EpochEnd::eventTime).containsExactly(14L);
        }
    }

    /**
     * The input's event-time watermark is in the checkpoint: after a restore (also at another
     * parallelism) a replayed row is late exactly when it was, though the source's watermarks start over.
     */
    @Test
    void theEventTimeWatermarkSurvivesARestore() throws Exception {
        MaintenancePlan plan = Planner.plan(QueryParser.parse("Q(W,A) :- R(A,T,W,E)"), K);
        Windows windows = Windows.NONE.with(WindowAssignment.of("R", 1, WindowSpec.tumble(Duration.ofMillis(10))));
        OperatorSubtaskState snapshot;
        try (var h = new OneInputStreamOperatorTestHarness<>(
                new IngestOperator<>(plan, K, routes(plan), EPOCHS, 0, 0, 0, 1, 0, windows), 128, 1, 0)) {
            h.open();
            h.processWatermark(new Watermark(25));
            snapshot = h.snapshot(1, 1);
        }
        for (int parallelism : new int[] {1, 2}) {
            try (var h = new OneInputStreamOperatorTestHarness<>(
                    new IngestOperator<>(plan, K, routes(plan), EPOCHS, 0, 0, 0, 1, 0, windows), 128, parallelism, 0)) {
                h.initializeState(
                        parallelism == 1
                                ? snapshot
                                : AbstractStreamOperatorTestHarness.repartitionOperatorState(snapshot, 128, 1, 2, 0));
                h.open();
                h.processWatermark(new Watermark(3));
                h.processElement(new StreamRecord<>(insert("R", 1, 1L, 15L)));
                h.processElement(new StreamRecord<>(insert("R", 1, 1L, 26L)));
                assertThat(h.extractOutputValues())
                        .as("at parallelism %d", parallelism)
                        .extracting(DeadLetter::reason)
                        .containsExactly("late: window [1970-01-01T00:00:00.010Z, 1970-01-01T00:00:00.020Z) closed at"
                                + " watermark 1970-01-01T00:00:00.025Z");
                assertThat(side(h, DIRECT)).hasSize(1);
            }
        }
    }

    /** With sink cells, a root view's delta straight to the sink goes to every cell that agrees with it. */
    @Test
    void aTreeWithoutStateSendsItsDeltasStraightToTheSinksCells() throws Exception {
        try (var h = harness(CELLS, 0, 0, 1, 0, null)) {
            h.processElement(new StreamRecord<>(insert("T", 5, 7L, 1L)));
            h.processElement(new StreamRecord<>(insert("R", 1, 1L, 2L)));
            List<RootUpdate<Long>> out = side(h, DIRECT);
            // V[C] has no A: it goes to both A-cells of its C.
            assertThat(out).hasSize(2).allSatisfy(u -> {
                assertThat(u.tree()).isEqualTo(1);
                assertThat(u.tuple()).isEqualTo(Tuple.of(7L));
                assertThat(u.payload()).isEqualTo(5L);
            });
            assertThat(out.stream().map(RootUpdate::cell).distinct()).hasSize(2);
            assertThat(side(h, treeTags(CELLS).get(0))).hasSize(1);
        }
    }

    @Test
    void routesMustFitThePlan() {
        List<OutputTag<Delta<Long>>> allTags = List.of(new OutputTag<>("t0", DeltaTypeInfo.of(K)));
        assertThatThrownBy(() -> new IngestOperator<>(
                        SHARED,
                        K,
                        IngestRoutes.trees(allTags, null, null, 1, 128),
                        EPOCHS,
                        0,
                        0,
                        0,
                        1,
                        0,
                        Windows.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one tree route per view tree");
        List<OutputTag<Delta<Long>>> noTags = java.util.Arrays.asList(null, null);
        assertThatThrownBy(() -> new IngestOperator<>(
                        SHARED,
                        K,
                        IngestRoutes.trees(noTags, DIRECT, null, 1, 128),
                        EPOCHS,
                        0,
                        0,
                        0,
                        1,
                        0,
                        Windows.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tree 0 (V[A]) has state below its root");
        assertThatThrownBy(() -> new IngestOperator<>(SHARED, K, routes(SHARED), EPOCHS, 0, 0, 0, 0, 0, Windows.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("miniBatch must be >= 1, got 0");
    }

    /**
     * Deltas straight to the sink are summed per root tuple within an epoch; the batch goes out before
     * the epoch's end and before a checkpoint barrier. Deltas to a view tree's operator are not batched.
     */
    @Test
    void directRootDeltasAreSummedPerRootTupleWithinAnEpoch() throws Exception {
        try (var h = harness(SHARED, 0, 0, 0, 1, 0, null, 100)) {
            h.processElement(new StreamRecord<>(insert("T", 1, 1L, 7L, 1L)));
            h.processElement(new StreamRecord<>(insert("T", 2, 1L, 7L, 2L)));
            h.processElement(new StreamRecord<>(insert("R", 5, 1L, 1L)));
            h.processElement(new StreamRecord<>(insert("T", 4, 1L, 7L, 3L)));
            h.processElement(new StreamRecord<>(insert("T", 8, 2L, 7L, 3L)));
            assertThat(side(h, DIRECT)).as("nothing before the epoch ends").isEmpty();
            assertThat(side(h, treeTags(SHARED).get(0))).hasSize(1);
            h.processElement(new StreamRecord<>(InputRecord.snapshotRequest()));
            assertThat(side(h, DIRECT))
                    .containsExactlyInAnyOrder(
                            RootUpdate.of(E1, 1, Tuple.of(1L, 7L), 7L), RootUpdate.of(E1, 1, Tuple.of(2L, 7L), 8L));
            h.processElement(new StreamRecord<>(insert("T", 16, 1L, 7L, 9L)));
            h.prepareSnapshotPreBarrier(1);
            assertThat(side(h, DIRECT)).hasSize(3).last().isEqualTo(RootUpdate.of(E2, 1, Tuple.of(1L, 7L), 16L));
            h.processElement(new StreamRecord<>(insert("T", 32, 1L, 7L, 9L)));
            h.endInput();
            assertThat(side(h, DIRECT)).hasSize(4).last().isEqualTo(RootUpdate.of(E2, 1, Tuple.of(1L, 7L), 32L));
            assertThat(side(h, EPOCHS)).extracting(EpochEnd::epoch).containsExactly(end(E1), end(E2));
        }
    }

    /** A batch of many root tuples (its map grows) sums each tuple's deltas. */
    @Test
    void aLargeBatchSumsEveryRootTuple() throws Exception {
        try (var h = harness(SHARED, 0, 0, 0, 1, 0, null, 1000)) {
            for (int round = 1; round <= 3; round++) {
                for (long c = 0; c < 200; c++) {
                    h.processElement(new StreamRecord<>(insert("T", c + round, 1L, c, 1L)));
                }
            }
            h.endInput();
            List<RootUpdate<Long>> out = side(h, DIRECT);
            assertThat(out).hasSize(200);
            for (RootUpdate<Long> u : out) {
                long c = (Long) u.tuple().get(1);
                assertThat(u.payload()).as("root tuple %s", u.tuple()).isEqualTo(3 * c + 6);
            }
        }
    }

    /** A batch that saved less than an eighth of its updates makes its tree send the next ones at once. */
    @Test
    void aBatchOfRootTuplesThatRarelyRepeatIsBypassed() throws Exception {
        int batch = 4;
        try (var h = harness(SHARED, 0, 0, 0, 1, 0, null, batch)) {
            for (long c = 0; c < batch; c++) {
                h.processElement(new StreamRecord<>(insert("T", 1, 1L, c, 1L)));
            }
            assertThat(side(h, DIRECT)).as("full, and nothing summed").hasSize(batch);
            int bypassed = DirectBatches.BYPASS_BATCHES * batch;
            for (int i = 0; i < bypassed; i++) {
                h.processElement(new StreamRecord<>(insert("T", 1, 1L, 99L, 1L)));
                assertThat(side(h, DIRECT)).hasSize(batch + i + 1);
            }
            h.processElement(new StreamRecord<>(insert("T", 1, 1L, 99L, 1L)));
            h.processElement(new StreamRecord<>(insert("T", 1, 1L, 99L, 1L)));
            assertThat(side(h, DIRECT)).as("batching again").hasSize(batch + bypassed);
            h.endInput();
            assertThat(side(h, DIRECT)).last().isEqualTo(RootUpdate.of(1, 1, Tuple.of(1L, 99L), 2L));
        }
    }

    /** A sum that overflows sends the earlier deltas alone; the sink reports what it cannot add. */
    @Test
    void anOverflowingBatchSumSendsTheEarlierDeltas() throws Exception {
        try (var h = harness(SHARED, 0, 0, 0, 1, 0, null, 100)) {
            h.processElement(new StreamRecord<>(insert("T", Long.MAX_VALUE, 1L, 7L, 1L)));
            h.processElement(new StreamRecord<>(insert("T", 2, 1L, 7L, 1L)));
            assertThat(side(h, DIRECT)).containsExactly(RootUpdate.of(1, 1, Tuple.of(1L, 7L), Long.MAX_VALUE));
            h.endInput();
            assertThat(side(h, DIRECT)).last().isEqualTo(RootUpdate.of(1, 1, Tuple.of(1L, 7L), 2L));
        }
    }

    /** A batched sum goes to every cell that agrees with its root tuple, once per cell. */
    @Test
    void aBatchedSumGoesToEachCellOfItsRootTuple() throws Exception {
        try (var h = harness(CELLS, 0, 0, 0, 4, 0, null, 100)) {
            h.processElement(new StreamRecord<>(insert("T", 1, 5L, 1L)));
            h.processElement(new StreamRecord<>(insert("T", 2, 5L, 2L)));
            h.endInput();
            List<RootUpdate<Long>> out = side(h, DIRECT);
            assertThat(out).hasSize(2).extracting(RootUpdate::payload).containsOnly(3L);
            assertThat(out.stream().map(RootUpdate::cell).distinct()).hasSize(2);
        }
    }

    @Test
    void aSelfJoinSendsOneDeltaPerAtomAndSelectionsFilter() throws Exception {
        try (var h = harness(SELF, 0, 0, 1, 0, null)) {
            h.processElement(new StreamRecord<>(insert("R", 1, 1L, 2L)));
            h.processElement(new StreamRecord<>(insert("S", 1, 1L, "y")));
            h.processElement(new StreamRecord<>(insert("S", 1, 1L, "x")));
            // Each atom is its own tree without state below the root: one root update per atom, straight to the sink.
            assertThat(treeTags(SELF)).containsOnlyNulls();
            assertThat(side(h, DIRECT)).extracting(RootUpdate::tree).containsExactlyInAnyOrder(0, 1, 2);
            assertThat(side(h, DIRECT)).extracting(RootUpdate::tuple).containsOnly(Tuple.of(1L));
        }
    }

    @Test
    void theFallbacksDeltasGoToTheirCells() throws Exception {
        try (var h = harness(PATH, 0, 0, 1, 0, null)) {
            h.processElement(new StreamRecord<>(insert("R", 1, 1L, 2L)));
            h.processElement(new StreamRecord<>(insert("S", 1, 2L, 3L)));
            List<Delta<Long>> out = side(h, FALLBACK);
            // Shares A=2 C=2: R(A,B) goes to both C-cells of its A, S(B,C) to both A-cells of its C.
            assertThat(out).hasSize(4);
            assertThat(out.subList(0, 2)).extracting(Delta::atom).containsOnly(0);
            assertThat(out.subList(0, 2).stream().map(Delta::partition).distinct())
                    .hasSize(2);
            assertThat(out).allSatisfy(d -> assertThat(d.partition()).isNotNull());
        }
    }

    @Test
    void badRecordsAreDeadLetteredAndNotCounted() throws Exception {
        try (var h = harness(SHARED, 1, 0, 1, 0, null)) {
            h.processElement(new StreamRecord<>(InputRecord.insert("X", Tuple.of(1L), 1L, "line 1")));
            h.processElement(new StreamRecord<>(InputRecord.insert("R", Tuple.of(1L), 1L, "line 2")));
            h.processElement(new StreamRecord<>(InputRecord.of(false, "R", Tuple.of(1L, 2L), null, "line 3")));
            h.processElement(new StreamRecord<>(insert("R", 1, 1L, 2L)));
            List<DeadLetter> dead = h.getOutput().stream()
                    .filter(o -> o instanceof StreamRecord<?>)
                    .map(o -> (DeadLetter) ((StreamRecord<?>) o).getValue())
                    .toList();
            assertThat(dead).extracting(DeadLetter::origin).containsExactly("line 1", "line 2", "line 3");
            assertThat(dead.get(0).reason()).isEqualTo("unknown relation 'X'; the query uses R, S, T");
            assertThat(dead.get(1).reason()).isEqualTo("relation R has arity 2, got 1 values");
            assertThat(dead.get(2).reason()).isEqualTo("insert without payload");
            assertThat(side(h, EPOCHS)).containsExactly(new EpochEnd(0, 0, end(E1), 1, true, true));
        }
    }

    @Test
    void aRestoreContinuesTheEpochsCountsAndPositions() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(SHARED, 2, 0, 1, 0, null)) {
            h.processElement(new StreamRecord<>(insert("R", 1, 1L, 1L)));
            h.processElement(new StreamRecord<>(insert("R", 1, 2L, 1L)));
            h.processElement(new StreamRecord<>(insert("R", 1, 3L, 1L)));
            snapshot = h.snapshot(1, 1);
        }
        try (var h = harness(SHARED, 2, 0, 1, 0, snapshot)) {
            h.processElement(new StreamRecord<>(insert("R", 1, 4L, 1L)));
            assertThat(watermarks(h))
                    .as("the epochs ended before the checkpoint")
                    .containsExactly(new Watermark(end(E1)), new Watermark(end(E2)));
            assertThat(side(h, EPOCHS)).containsExactly(new EpochEnd(0, 0, end(E2), 4, true, true));
            assertThat(side(h, treeTags(SHARED).get(0)))
                    .containsExactly(new Delta<>(E2, 0, Tuple.of(4L, 1L), 1L, Epochs.insertId(0, 4), null));
        }
    }

    /**
     * A checkpoint of an earlier version, whose ingest state is the text "subtask,parallelism,generation,
     * epoch,inEpoch,count,position,sinceSnapshot", restores as the typed state does.
     */
    @Test
    void theTextStateOfEarlierVersionsIsRead() throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = new OneInputStreamOperatorTestHarness<>(new LegacyIngestState("0,1,0," + E2 + ",1,3,3,1"))) {
            h.open();
            snapshot = h.snapshot(1, 1);
        }
        try (var h = harness(SHARED, 2, 0, 1, 0, snapshot)) {
            h.processElement(new StreamRecord<>(insert("R", 1, 4L, 1L)));
            assertThat(side(h, EPOCHS)).containsExactly(new EpochEnd(0, 0, end(E2), 4, true, true));
            assertThat(side(h, treeTags(SHARED).get(0)))
                    .containsExactly(new Delta<>(E2, 0, Tuple.of(4L, 1L), 1L, Epochs.insertId(0, 4), null));
        }
        try (var h = new OneInputStreamOperatorTestHarness<>(new LegacyIngestState("0,1,0,zz"))) {
            h.open();
            snapshot = h.snapshot(1, 1);
        }
        OperatorSubtaskState corrupt = snapshot;
        assertThatThrownBy(() -> harness(SHARED, 2, 0, 1, 0, corrupt))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("corrupt ingest state (expected eight integers): 0,1,0,zz");
    }

    /** Writes the ingest's text state as versions before {@code IngestPosition} did. */
    private static final class LegacyIngestState extends AbstractStreamOperator<DeadLetter>
            implements OneInputStreamOperator<InputRecord<Long>, DeadLetter> {
        private static final long serialVersionUID = 1L;
        private final String text;
        private transient ListState<String> state;

        LegacyIngestState(String text) {
            this.text = text;
        }

        @Override
        public void initializeState(StateInitializationContext context) throws Exception {
            super.initializeState(context);
            state = context.getOperatorStateStore()
                    .getUnionListState(new ListStateDescriptor<>(StateNames.INGEST_EPOCHS, Types.STRING));
        }

        @Override
        public void snapshotState(StateSnapshotContext context) throws Exception {
            super.snapshotState(context);
            state.update(List.of(text));
        }

        @Override
        public void processElement(StreamRecord<InputRecord<Long>> element) {}
    }

    /**
     * Restored from two subtasks into one: it takes over both subtasks' counts, starts after the
     * largest old epoch, and first sends the bridge of a new generation.
     */
    @Test
    void aRescaleBridgesToANewGeneration() throws Exception {
        OperatorSubtaskState[] parts = new OperatorSubtaskState[2];
        for (int s = 0; s < 2; s++) {
            try (var h = harness(SHARED, 2, 0, 2, s, null)) {
                for (int i = 0; i < 3 + 2 * s; i++) {
                    h.processElement(new StreamRecord<>(insert("R", 1, (long) i, 1L)));
                }
                parts[s] = h.snapshot(1, 1);
            }
        }
        // Subtask 0 read 3 inserts (epoch 2 open), subtask 1 read 5 (epoch 3 open).
        OperatorSubtaskState merged = AbstractStreamOperatorTestHarness.repackageState(parts);
        OperatorSubtaskState one = AbstractStreamOperatorTestHarness.repartitionOperatorState(merged, 128, 2, 1, 0);
        try (var h = harness(SHARED, 2, 0, 1, 0, one)) {
            h.processElement(new StreamRecord<>(insert("R", 1, 9L, 1L)));
            assertThat(side(h, EPOCHS)).containsExactly(new EpochEnd(0, 1, end(E3), 8, true, true));
            assertThat(watermarks(h)).containsExactly(new Watermark(end(E3)));
            assertThat(side(h, treeTags(SHARED).get(0)))
                    .extracting(Delta::epoch)
                    .containsExactly(E4);
        }
    }

    /**
     * Progress epochs end without asking for a snapshot, and do not restart the count to the next
     * snapshot; they are minor epochs, a snapshot ends the major ({@link Epochs}).
     */
    @Test
    void progressEpochsAskForNoSnapshot() throws Exception {
        try (var h = harness(SHARED, 3, 2, 0, 1, 0, null, 1)) {
            for (long i = 0; i < 6; i++) {
                h.processElement(new StreamRecord<>(insert("R", 1, i, 1L)));
            }
            assertThat(side(h, EPOCHS))
                    .containsExactly(
                            new EpochEnd(0, 0, E1, 2, true, false),
                            new EpochEnd(0, 0, end(E1), 3, true, true),
                            new EpochEnd(0, 0, E2, 5, true, false),
                            new EpochEnd(0, 0, end(E2), 6, true, true));
        }
    }

    /** A processing-time tick ends the epoch, not deterministically, and moves to the tick's epoch. */
    @Test
    void aTickEndsTheEpoch() throws Exception {
        try (var h = harness(SHARED, 0, 100, 1, 0, null)) {
            h.setProcessingTime(0);
            h.processElement(new StreamRecord<>(insert("R", 1, 1L, 1L)));
            h.setProcessingTime(150);
            h.processElement(new StreamRecord<>(insert("R", 1, 2L, 1L)));
            assertThat(side(h, EPOCHS)).containsExactly(new EpochEnd(0, 0, end(E1), 1, false, true));
            long tick = Epochs.tickEpoch(1, 100, 100);
            assertThat(tick).isEqualTo(2L << 20);
            assertThat(side(h, treeTags(SHARED).get(0)))
                    .extracting(Delta::epoch)
                    .containsExactly(1L, tick);
        }
    }
}
