package io.flinkivm.flink.runtime;

import static io.flinkivm.flink.runtime.Harnesses.element;
import static io.flinkivm.flink.runtime.Harnesses.mark;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.ResultRecord;
import io.flinkivm.flink.Snapshots;
import io.flinkivm.flink.runtime.Harnesses.Backend;
import io.flinkivm.flink.runtime.Harnesses.Outputs;
import io.flinkivm.flink.runtime.Harnesses.Step;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.RootUpdateTypeInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The border sink in a harness: root updates in, snapshots (rows with recovered payloads, one end
 * marker) out on trigger watermarks. Natural numbers throughout.
 */
class BorderSinkOperatorTest {
    /** Trees V[A] (from R, S) and V[A,C] (from T); the sink is keyed by A, which both root schemas have. */
    static final MaintenancePlan SHARED = Planner.plan(
            QueryParser.parse("Q(A,C) :- R(A,B), S(A,B,D), T(A,C,E)"), NaturalSemiring.INSTANCE);
    /** A cross product: no shared variable, the sink runs under one constant key. */
    static final MaintenancePlan CROSS = Planner.plan(QueryParser.parse("Q(A,C) :- R(A), S(C)"), NaturalSemiring.INSTANCE);

    /**
     * The triangle, cyclic: one view tree per atom (its root view is the atom's relation), one bag
     * {A,B,C} above the border, the sink under the constant key.
     */
    static final MaintenancePlan TRIANGLE = Planner.plan(
            QueryParser.parse("Q(A,B,C) :- R(A,B), S(B,C), T(A,C)"), NaturalSemiring.INSTANCE);

    static KeyedOneInputStreamOperatorTestHarness<Tuple, RootUpdate<Long>, ResultRecord<Long>> harness(
            MaintenancePlan plan, long periodMillis, Backend backend, OperatorSubtaskState restored) throws Exception {
        boolean keyed = plan == SHARED;
        KeySelector<RootUpdate<Long>, Tuple> keys = keyed
                ? Harnesses.byPositions(new int[][] {{0}, {0}})
                : u -> Tuple.EMPTY;
        return Harnesses.keyed(() -> new BorderSinkOperator<>(plan, NaturalSemiring.INSTANCE,
                PayloadTypes.of(NaturalSemiring.INSTANCE), RootUpdateTypeInfo.of(NaturalSemiring.INSTANCE), keyed, false,
                periodMillis, false), keys, backend, restored);
    }

    private static RootUpdate<Long> v0(long a, long payload, boolean isNew) {
        return new RootUpdate<>(0, Tuple.of(a), payload, isNew);
    }

    private static RootUpdate<Long> v1(long a, long c, long payload, boolean isNew) {
        return new RootUpdate<>(1, Tuple.of(a, c), payload, isNew);
    }

    private static Map<Tuple, Long> rows(Object... tupleAndPayload) {
        Map<Tuple, Long> out = new java.util.HashMap<>();
        for (int i = 0; i < tupleAndPayload.length; i += 2) {
            out.put((Tuple) tupleAndPayload[i], (Long) tupleAndPayload[i + 1]);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<ResultRecord<Long>> results(Outputs outputs) {
        List<ResultRecord<Long>> out = new ArrayList<>();
        for (Object v : outputs.values()) {
            out.add((ResultRecord<Long>) v);
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void emitsAPrefixExactSnapshotWithRecoveredPayloadsOnEachTrigger(Backend backend) throws Exception {
        try (var h = harness(SHARED, 0, backend, null)) {
            h.processWatermark(EventTime.trigger(0)); // the empty result before any insert
            h.processElement(v0(1, 2, true), 2);
            h.processElement(v1(1, 1, 3, true), 2);
            h.processElement(v1(1, 2, 1, true), 4);
            h.processElement(v1(2, 1, 5, true), 4); // V[A](2) is still zero: no result yet
            h.processWatermark(4);
            h.processWatermark(EventTime.trigger(2));
            h.processElement(v0(1, 4, false), 6); // a payload change only
            h.processElement(v0(2, 1, true), 6);
            h.processWatermark(EventTime.trigger(3));
            h.processWatermark(EventTime.trigger(3)); // the same trigger again: no second snapshot
            h.processWatermark(EventTime.progress(4)); // progress, not a trigger

            List<ResultRecord<Long>> out = results(Harnesses.outputs(h, null));
            TreeMap<Long, Map<Tuple, Long>> snapshots = Snapshots.byId(out, 1);
            assertThat(snapshots).containsOnlyKeys(0L, 2L, 3L);
            assertThat(snapshots.get(0L)).isEmpty();
            assertThat(snapshots.get(2L)).isEqualTo(rows(Tuple.of(1L, 1L), 6L, Tuple.of(1L, 2L), 2L));
            assertThat(snapshots.get(3L)).isEqualTo(
                    rows(Tuple.of(1L, 1L), 12L, Tuple.of(1L, 2L), 4L, Tuple.of(2L, 1L), 5L));
            assertThat(out).allSatisfy(r -> {
                assertThat(r.isPrefixExact()).isTrue();
                assertThat(r.insertCount()).isEqualTo(r.snapshotId());
            });
            assertThat(out).filteredOn(ResultRecord::isEnd)
                    .containsExactly(ResultRecord.end(0, 0, 0, true), ResultRecord.end(2, 2, 2, true),
                            ResultRecord.end(3, 3, 3, true));
            // Each snapshot's records carry its trigger's timestamp and precede the trigger.
            List<Object> main = new ArrayList<>(h.getOutput());
            int end2 = main.indexOf(new StreamRecord<>(ResultRecord.end(2, 2, 2, true), EventTime.trigger(2)));
            assertThat(end2).isPositive();
            assertThat(main.get(end2 + 1)).isEqualTo(new Watermark(EventTime.trigger(2)));
        }
    }

    /**
     * Two channels' records interleaved out of timestamp order across trees (the sink processes each
     * released batch in arrival order): a record of a later insert that arrives before a trigger is
     * held back, and a root tuple's later payload replaces its earlier one.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void recordsOvertakingAcrossChannelsGiveThePrefixExactSnapshots(Backend backend) throws Exception {
        try (var h = harness(SHARED, 0, backend, null)) {
            h.processElement(v1(1, 1, 3, true), EventTime.ofInsert(2));
            h.processElement(v1(1, 2, 1, true), EventTime.ofInsert(4)); // insert 4, after trigger 2
            h.processElement(v0(1, 2, true), EventTime.ofInsert(1));
            h.processElement(v0(1, 5, false), EventTime.ofInsert(3));
            h.processWatermark(EventTime.trigger(2));
            h.processWatermark(EventTime.trigger(4));
            TreeMap<Long, Map<Tuple, Long>> snapshots = Snapshots.byId(results(Harnesses.outputs(h, null)), 1);
            assertThat(snapshots).containsOnlyKeys(2L, 4L);
            assertThat(snapshots.get(2L)).isEqualTo(rows(Tuple.of(1L, 1L), 6L));
            assertThat(snapshots.get(4L)).isEqualTo(rows(Tuple.of(1L, 1L), 15L, Tuple.of(1L, 2L), 5L));
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void aCrossProductRunsUnderTheConstantKey(Backend backend) throws Exception {
        try (var h = harness(CROSS, 0, backend, null)) {
            h.processElement(new RootUpdate<>(0, Tuple.of("a"), 2L, true), 2);
            h.processElement(new RootUpdate<>(1, Tuple.of("x"), 3L, true), 4);
            h.processElement(new RootUpdate<>(1, Tuple.of("y"), 1L, true), 6);
            h.processWatermark(EventTime.trigger(3));
            h.processElement(new RootUpdate<>(0, Tuple.of("b"), 5L, true), 8);
            h.processElement(new RootUpdate<>(1, Tuple.of("y"), 4L, false), 10);
            h.processWatermark(EventTime.trigger(5));
            TreeMap<Long, Map<Tuple, Long>> snapshots = Snapshots.byId(results(Harnesses.outputs(h, null)), 1);
            assertThat(snapshots.get(3L)).isEqualTo(rows(Tuple.of("a", "x"), 6L, Tuple.of("a", "y"), 2L));
            assertThat(snapshots.get(5L)).isEqualTo(rows(Tuple.of("a", "x"), 6L, Tuple.of("a", "y"), 8L,
                    Tuple.of("b", "x"), 15L, Tuple.of("b", "y"), 20L));
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void theJoinAndHeldBackUpdatesSurviveSnapshotAndRestore(Backend backend) throws Exception {
        List<Step<RootUpdate<Long>>> before = List.of(
                element(v0(1, 2, true), 2),
                element(v1(1, 1, 3, true), 4),
                element(v1(2, 7, 1, true), 10), // held back across the snapshot
                element(v0(2, 3, true), 8),
                mark(EventTime.trigger(2)),
                element(v1(1, 5, 1, true), 6));
        List<Step<RootUpdate<Long>>> after = List.of(
                mark(EventTime.trigger(3)),
                element(v0(1, 10, false), 12),
                mark(EventTime.trigger(4)),
                mark(EventTime.trigger(6)));
        Outputs[] runs = Harnesses.straightAndRestored(restored -> harness(SHARED, 0, backend, restored), null,
                before, after);
        assertThat(runs[1].normalized()).isEqualTo(runs[0].normalized());
        TreeMap<Long, Map<Tuple, Long>> snapshots = Snapshots.byId(results(runs[0]), 1);
        assertThat(snapshots).containsOnlyKeys(2L, 3L, 4L, 6L);
        assertThat(snapshots.get(2L)).isEqualTo(rows(Tuple.of(1L, 1L), 6L));
        assertThat(snapshots.get(3L)).isEqualTo(rows(Tuple.of(1L, 1L), 6L, Tuple.of(1L, 5L), 2L));
        assertThat(snapshots.get(4L)).isEqualTo(snapshots.get(3L));
        assertThat(snapshots.get(6L)).isEqualTo(rows(Tuple.of(1L, 1L), 30L, Tuple.of(1L, 5L), 10L, Tuple.of(2L, 7L), 3L));
    }

    /**
     * The cyclic plan's state (member sets, value lists, the bag and the Boolean join over it) survives
     * a snapshot and a restore into a fresh operator: random root updates of the triangle, a snapshot
     * every ten inserts, each equal to the naive evaluator's result, the same outputs as a run without
     * the restore, and the join-size gauges recounted from the restored state.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void theBagsSurviveSnapshotAndRestore(Backend backend) throws Exception {
        assertThat(TRIANGLE.kind()).isEqualTo(PlanKind.CYCLIC_P_HIERARCHICAL);
        NaturalSemiring k = NaturalSemiring.INSTANCE;
        Random random = new Random(5);
        KDatabase<Long> db = new KDatabase<>(k);
        Map<Long, Map<Tuple, Long>> expected = new TreeMap<>();
        Map<String, Long> rootPayloads = new java.util.HashMap<>();
        List<Step<RootUpdate<Long>>> steps = new ArrayList<>();
        int inserts = 160;
        for (int n = 1; n <= inserts; n++) {
            ViewTree tree = TRIANGLE.viewTrees().get(random.nextInt(3));
            var atom = TRIANGLE.query().body().get(tree.atoms().get(0));
            assertThat(tree.schema()).as("root tuples are atom tuples").isEqualTo(atom.variables());
            String relation = atom.relation();
            Tuple t = Tuple.of((long) random.nextInt(5), (long) random.nextInt(5));
            long payload = 1 + random.nextInt(3);
            db.insert(relation, t, payload);
            Long before = rootPayloads.merge(tree.index() + "|" + t, payload, Long::sum);
            steps.add(element(new RootUpdate<>(tree.index(), t, before, before == payload), EventTime.ofInsert(n)));
            if (n % 10 == 0) {
                steps.add(mark(EventTime.trigger(n)));
                expected.put((long) n, NaiveEvaluator.evaluate(TRIANGLE.query(), k, db.relations()));
            }
        }
        List<Step<RootUpdate<Long>>> before = steps.subList(0, steps.size() / 2);
        List<Step<RootUpdate<Long>>> after = steps.subList(steps.size() / 2, steps.size());
        Outputs[] runs = Harnesses.straightAndRestored(restored -> harness(TRIANGLE, 0, backend, restored), null,
                before, after);
        assertThat(runs[1].normalized()).isEqualTo(runs[0].normalized());
        TreeMap<Long, Map<Tuple, Long>> snapshots = Snapshots.byId(results(runs[0]), 1);
        assertThat(snapshots).isEqualTo(expected);
        Map<Tuple, Long> last = expected.get((long) inserts);
        assertThat(last).hasSizeGreaterThan(10);

        // The gauges, counted from the restored state and then kept up to date, equal a straight run's.
        long[] straight = new long[2];
        try (var h = harness(TRIANGLE, 0, backend, null)) {
            Harnesses.play(h, steps);
            BorderSinkOperator<?> op = (BorderSinkOperator<?>) h.getOneInputOperator();
            straight[0] = op.liveJoinTuples();
            straight[1] = op.bagTuples(0);
        }
        assertThat(straight).as("one bag {A,B,C}, the root: each of its tuples is live and a result")
                .containsExactly(last.size(), last.size());
        OperatorSubtaskState snapshot;
        try (var h = harness(TRIANGLE, 0, backend, null)) {
            Harnesses.play(h, before);
            snapshot = h.snapshot(1, 100);
        }
        try (var h = harness(TRIANGLE, 0, backend, snapshot)) {
            Harnesses.play(h, after);
            BorderSinkOperator<?> op = (BorderSinkOperator<?>) h.getOneInputOperator();
            assertThat(new long[] {op.liveJoinTuples(), op.bagTuples(0)}).isEqualTo(straight);
        }
    }

    /** The acyclic join's live-tuple gauge: each root tuple with a live match, recounted after a restore. */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void theLiveTupleGaugeCountsRootTuplesWithMatches(Backend backend) throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(SHARED, 0, backend, null)) {
            h.processElement(v0(1, 2, true), 2);
            h.processElement(v1(1, 1, 3, true), 4); // V[A](1) and V[A,C](1,1) live
            h.processElement(v1(2, 1, 5, true), 6); // waits for V[A](2)
            h.processWatermark(EventTime.progress(3)); // releases the held-back updates
            assertThat(((BorderSinkOperator<?>) h.getOneInputOperator()).liveJoinTuples()).isEqualTo(2);
            snapshot = h.snapshot(1, 100);
        }
        try (var h = harness(SHARED, 0, backend, snapshot)) {
            BorderSinkOperator<?> op = (BorderSinkOperator<?>) h.getOneInputOperator();
            assertThat(op.liveJoinTuples()).isEqualTo(2);
            h.processElement(v0(2, 1, true), 8); // V[A](2) and the waiting V[A,C](2,1)
            h.processWatermark(EventTime.progress(4));
            assertThat(op.liveJoinTuples()).isEqualTo(4);
        }
    }

    @Test
    void processingTimeSnapshotsAreRecentButNotPrefixExact() throws Exception {
        try (var h = harness(SHARED, 100, Backend.HEAP, null)) {
            h.processElement(v0(1, 2, true), 2);
            h.processElement(v1(1, 1, 3, true), 2);
            h.processWatermark(EventTime.trigger(1));
            h.processElement(v1(1, 2, 4, true), 4);
            h.processWatermark(EventTime.progress(2));
            h.setProcessingTime(100);
            List<ResultRecord<Long>> out = results(Harnesses.outputs(h, null));
            List<ResultRecord<Long>> recent = out.stream().filter(r -> !r.isPrefixExact()).toList();
            assertThat(recent).containsExactlyInAnyOrder(
                    ResultRecord.row(1, 1, Tuple.of(1L, 1L), 6L, false),
                    ResultRecord.row(1, 1, Tuple.of(1L, 2L), 8L, false),
                    ResultRecord.end(1, 1, 2, false));
            assertThat(Snapshots.byId(out, 1)).as("only prefix-exact snapshots").containsOnlyKeys(1L);
        }
    }

    /** The counters of processing-time snapshots and the last trigger are part of the state. */
    @Test
    void processingTimeSnapshotIdsAndInsertCountsContinueAfterARestore() throws Exception {
        OperatorSubtaskState snapshot;
        List<ResultRecord<Long>> before;
        try (var h = harness(SHARED, 100, Backend.HEAP, null)) {
            h.processElement(v0(1, 2, true), 2);
            h.processElement(v1(1, 1, 3, true), 2);
            h.processWatermark(EventTime.trigger(1));
            h.setProcessingTime(100);
            before = results(Harnesses.outputs(h, null));
            snapshot = h.snapshot(1, 100);
        }
        try (var h = harness(SHARED, 100, Backend.HEAP, snapshot)) {
            h.processElement(v1(1, 2, 4, true), 4);
            h.processWatermark(EventTime.progress(2));
            h.setProcessingTime(100);
            List<ResultRecord<Long>> after = results(Harnesses.outputs(h, null));
            ResultRecord<Long> firstEnd = before.stream().filter(r -> r.isEnd() && !r.isPrefixExact()).findFirst().orElseThrow();
            ResultRecord<Long> secondEnd = after.stream().filter(r -> r.isEnd() && !r.isPrefixExact()).findFirst().orElseThrow();
            assertThat(firstEnd).isEqualTo(ResultRecord.end(1, 1, 1, false));
            assertThat(secondEnd.rows()).isEqualTo(2);
            assertThat(secondEnd.snapshotId()).as("id of the first processing-time snapshot after the restore")
                    .isGreaterThan(firstEnd.snapshotId());
            assertThat(secondEnd.insertCount()).as("inserts reflected (the last trigger was after 1)").isEqualTo(1);
        }
    }
}
