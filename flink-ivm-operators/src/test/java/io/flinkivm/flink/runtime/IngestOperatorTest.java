package io.flinkivm.flink.runtime;

import static io.flinkivm.flink.runtime.Harnesses.element;
import static io.flinkivm.flink.runtime.Harnesses.mark;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.InputRecord;
import io.flinkivm.flink.runtime.Harnesses.Backend;
import io.flinkivm.flink.runtime.Harnesses.Outputs;
import io.flinkivm.flink.runtime.Harnesses.Step;
import io.flinkivm.flink.types.DeltaTypeInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The sequencer in a harness: numbering, validation, routing to the side output of each view, and
 * the progress and trigger watermarks ({@link EventTime}).
 */
class IngestOperatorTest {
    /** Node 0 is V[A,B]: R goes to its slot 0 and S (projected) to its slot 1. */
    static final MaintenancePlan JOIN = plan("Q(A) :- R(A,B), S(A,B,C)");

    static MaintenancePlan plan(String query) {
        return Planner.plan(QueryParser.parse(query), NaturalSemiring.INSTANCE);
    }

    /** The side outputs, as the job builder names them. */
    static Map<Integer, OutputTag<Delta<Long>>> tags(MaintenancePlan plan) {
        DeltaTypeInfo<Long> type = DeltaTypeInfo.of(NaturalSemiring.INSTANCE);
        Map<Integer, OutputTag<Delta<Long>>> tags = new HashMap<>();
        for (ViewNode n : plan.statefulNodes()) {
            tags.put(n.id(), new OutputTag<>("ivm-node-" + n.id(), type));
        }
        for (ViewTree t : plan.viewTrees()) {
            tags.put(Delta.rootTarget(t.index()), new OutputTag<>("ivm-root-" + t.index(), type));
        }
        return tags;
    }

    static OneInputStreamOperatorTestHarness<InputRecord<Long>, DeadLetter> harness(MaintenancePlan plan,
            long snapshotEvery, long progressEvery, Backend backend, OperatorSubtaskState restored) throws Exception {
        var h = new OneInputStreamOperatorTestHarness<>(
                new IngestOperator<>(plan, NaturalSemiring.INSTANCE, snapshotEvery, progressEvery, tags(plan)));
        return Harnesses.open(h, backend, restored);
    }

    private static InputRecord<Long> insert(String relation, long payload, Object... values) {
        return InputRecord.insert(relation, Tuple.of(values), payload);
    }

    private static StreamRecord<Delta<Long>> delta(int target, int slot, Tuple key, long payload, long insert) {
        return new StreamRecord<>(new Delta<>(target, slot, key, payload), EventTime.ofInsert(insert));
    }

    private static List<Object> side(OneInputStreamOperatorTestHarness<?, ?> h, OutputTag<?> tag) {
        return h.getSideOutput(tag) == null ? List.of() : new ArrayList<>(h.getSideOutput(tag));
    }

    @Test
    void routesEachInsertToItsViewStampedWithItsSequenceNumber() throws Exception {
        try (var h = harness(JOIN, 0, 2, Backend.HEAP, null)) {
            h.processElement(insert("R", 2, 1L, 2L), 0);
            h.processElement(insert("S", 1, 1L, 2L, 3L), 0);
            h.processElement(insert("S", 0, 1L, 2L, 4L), 0); // payload zero: counted, routed nowhere
            h.processElement(insert("R", 1, 5L, "5"), 0);
            OutputTag<Delta<Long>> node = tags(JOIN).get(0);
            assertThat(side(h, node)).containsExactly(
                    delta(0, 0, Tuple.of(1L, 2L), 2, 1),
                    delta(0, 1, Tuple.of(1L, 2L), 1, 2),
                    delta(0, 0, Tuple.of(5L, "5"), 1, 4));
            assertThat(side(h, tags(JOIN).get(Delta.rootTarget(0)))).as("the root view gets only V[A,B]'s deltas").isEmpty();
            assertThat(h.getOutput()).containsExactly(new Watermark(EventTime.progress(2)), new Watermark(EventTime.progress(4)));
        }
    }

    @Test
    void aSelfJoinTurnsOneInsertIntoOneDeltaPerAtomAndSelectionsFilter() throws Exception {
        MaintenancePlan self = plan("Q(A,B) :- R(A,B), R(B,A)");
        try (var h = harness(self, 0, 100, Backend.HEAP, null)) {
            h.processElement(insert("R", 3, 1L, 2L), 0);
            assertThat(side(h, tags(self).get(Delta.rootTarget(0)))).containsExactly(
                    delta(Delta.rootTarget(0), 0, Tuple.of(1L, 2L), 3, 1));
            assertThat(side(h, tags(self).get(Delta.rootTarget(1)))).containsExactly(
                    delta(Delta.rootTarget(1), 0, Tuple.of(2L, 1L), 3, 1));
        }
        MaintenancePlan selection = plan("Q(A) :- R(A,'1'), S(A)");
        try (var h = harness(selection, 0, 100, Backend.HEAP, null)) {
            h.processElement(insert("R", 1, 7L, 2L), 0); // does not match R(A,'1')
            h.processElement(insert("R", 1, 7L, 1L), 0);
            h.processElement(insert("R", 1, 8L, "1"), 0);
            assertThat(side(h, tags(selection).get(Delta.rootTarget(0)))).containsExactly(
                    delta(Delta.rootTarget(0), 0, Tuple.of(7L), 1, 2),
                    delta(Delta.rootTarget(0), 0, Tuple.of(8L), 1, 3));
        }
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void rejectsUnknownRelationsWrongAritiesAndForeignPayloadsAsDeadLetters() throws Exception {
        try (var h = harness(JOIN, 0, 100, Backend.HEAP, null)) {
            h.processElement(insert("R", 1, 1L, 2L), 0);
            h.processElement(InputRecord.insert("X", Tuple.of(1L), 1L, "line 2"), 0);
            h.processElement(InputRecord.insert("R", Tuple.of(1L, 2L, 3L), 1L, "line 3"), 0);
            h.processElement((InputRecord) InputRecord.insert("S", Tuple.of(1L, 2L, 3L), "three", "line 4"), 0);
            h.processElement(insert("S", 4, 1L, 2L, 3L), 0);
            assertThat(h.extractOutputStreamRecords()).containsExactly(
                    new StreamRecord<>(new DeadLetter("line 2", "unknown relation 'X'; the query uses R, S",
                            "Insert[X(1) ↦ 1 from line 2]"), EventTime.ofInsert(1)),
                    new StreamRecord<>(new DeadLetter("line 3", "relation R has arity 2, got 3 values",
                            "Insert[R(1, 2, 3) ↦ 1 from line 3]"), EventTime.ofInsert(1)),
                    new StreamRecord<>(new DeadLetter("line 4", "payload three is not a natural payload",
                            "Insert[S(1, 2, 3) ↦ three from line 4]"), EventTime.ofInsert(1)));
            // Rejected records are not numbered: the next insert is the second.
            assertThat(side(h, tags(JOIN).get(0))).containsExactly(
                    delta(0, 0, Tuple.of(1L, 2L), 1, 1),
                    delta(0, 1, Tuple.of(1L, 2L), 4, 2));
        }
    }

    @Test
    void emitsProgressAndTriggerWatermarksAndSwallowsUpstreamOnes() throws Exception {
        try (var h = harness(JOIN, 3, 2, Backend.HEAP, null)) {
            for (int i = 1; i <= 4; i++) {
                h.processElement(insert("R", 1, (long) i, 0L), 0);
            }
            h.processElement(InputRecord.snapshotRequest(), 0);
            h.processElement(InputRecord.snapshotRequest(), 0); // nothing new since the last trigger
            h.processWatermark(1_000); // upstream event time means nothing here
            h.processElement(insert("R", 1, 5L, 0L), 0);
            h.processWatermark(Long.MAX_VALUE); // end of input: a last trigger, then the end
            h.endInput();
            assertThat(h.getOutput()).containsExactly(
                    new Watermark(EventTime.progress(2)),
                    new Watermark(EventTime.trigger(3)), // every 3 inserts
                    new Watermark(EventTime.progress(4)),
                    new Watermark(EventTime.trigger(4)), // the control record
                    new Watermark(EventTime.trigger(5)),
                    new Watermark(Long.MAX_VALUE));
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void theSequenceNumberAndLastWatermarkSurviveSnapshotAndRestore(Backend backend) throws Exception {
        List<Step<InputRecord<Long>>> before = List.of(
                element(insert("R", 1, 1L, 2L), 0),
                element(insert("S", 2, 1L, 2L, 9L), 0),
                element(InputRecord.snapshotRequest(), 0));
        List<Step<InputRecord<Long>>> after = List.of(
                element(InputRecord.snapshotRequest(), 0), // still after 2 inserts: no second trigger
                element(insert("R", 3, 1L, 2L), 0),
                element(InputRecord.insert("X", Tuple.of(1L), 1L), 0),
                mark(5),
                element(insert("S", 4, 1L, 2L, 9L), 0),
                element(InputRecord.snapshotRequest(), 0));
        Outputs[] runs = Harnesses.straightAndRestored(restored -> harness(JOIN, 0, 4, backend, restored),
                tags(JOIN).get(0), before, after);
        assertThat(runs[1]).isEqualTo(runs[0]);
        assertThat(runs[0].side()).containsExactly(
                delta(0, 0, Tuple.of(1L, 2L), 1, 1),
                delta(0, 1, Tuple.of(1L, 2L), 2, 2),
                delta(0, 0, Tuple.of(1L, 2L), 3, 3),
                delta(0, 1, Tuple.of(1L, 2L), 4, 4));
        assertThat(runs[0].main()).filteredOn(o -> o instanceof Watermark).containsExactly(
                new Watermark(EventTime.trigger(2)), new Watermark(EventTime.progress(4)),
                new Watermark(EventTime.trigger(4)));
    }
}
