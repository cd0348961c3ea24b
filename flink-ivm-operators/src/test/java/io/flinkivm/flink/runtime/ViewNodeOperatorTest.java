package io.flinkivm.flink.runtime;

import static io.flinkivm.flink.runtime.Harnesses.element;
import static io.flinkivm.flink.runtime.Harnesses.mark;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.runtime.Harnesses.Backend;
import io.flinkivm.flink.runtime.Harnesses.Outputs;
import io.flinkivm.flink.runtime.Harnesses.Step;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.DeltaTypeInfo;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The join view V[A,B] of {@code Q(A) :- R(A,B), S(A,B,C)} (node 0: slot 0 is R, slot 1 the
 * projection of S) over the natural numbers, keyed by (A,B), in a harness.
 */
class ViewNodeOperatorTest {
    static final MaintenancePlan PLAN = Planner.plan(QueryParser.parse("Q(A) :- R(A,B), S(A,B,C)"),
            NaturalSemiring.INSTANCE);
    static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("ivm-dead-letters", DeadLetterTypeInfo.INSTANCE);
    private static final int ROOT = Delta.rootTarget(0);

    static KeyedOneInputStreamOperatorTestHarness<Tuple, Delta<Long>, Delta<Long>> harness(Backend backend,
            OperatorSubtaskState restored) throws Exception {
        return harness(false, backend, restored);
    }

    /** @param inOrderInput whether the operator trusts its input to arrive in timestamp order */
    static KeyedOneInputStreamOperatorTestHarness<Tuple, Delta<Long>, Delta<Long>> harness(boolean inOrderInput,
            Backend backend, OperatorSubtaskState restored) throws Exception {
        DeltaTypeInfo<Long> deltaType = DeltaTypeInfo.of(NaturalSemiring.INSTANCE);
        return Harnesses.keyed(() -> new ViewNodeOperator<>(PLAN, NaturalSemiring.INSTANCE, 0, deltaType.payloadType(),
                deltaType, DEAD_LETTERS, inOrderInput), Harnesses.byDeltaKey(), backend, restored);
    }

    private static Delta<Long> r(long a, long b, long payload) {
        return new Delta<>(0, 0, Tuple.of(a, b), payload);
    }

    private static Delta<Long> s(long a, long b, long payload) {
        return new Delta<>(0, 1, Tuple.of(a, b), payload);
    }

    private static StreamRecord<Delta<Long>> up(long a, long payload, long timestamp) {
        return new StreamRecord<>(new Delta<>(ROOT, 0, Tuple.of(a), payload), timestamp);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void sendsTheProductWithTheOtherChildUpwardsUnderTheShorterKey(Backend backend) throws Exception {
        try (var h = harness(backend, null)) {
            h.processWatermark(1);
            h.processElement(r(1, 1, 2), 2); // S(1,1) is still zero: nothing goes up
            h.processWatermark(2);
            h.processElement(s(1, 1, 3), 4); // 3 · R(1,1)=2
            h.processElement(s(2, 1, 5), 4); // other key, R(2,1) is zero
            h.processWatermark(4);
            h.processElement(r(1, 1, 1), 6); // 1 · S(1,1)=3
            h.processWatermark(6);
            assertThat(h.getOutput()).containsExactly(new Watermark(1), new Watermark(2), up(1, 6, 4), new Watermark(4),
                    up(1, 3, 6), new Watermark(6));
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void processesHeldBackDeltasInTimestampOrderNotArrivalOrder(Backend backend) throws Exception {
        try (var h = harness(backend, null)) {
            // The delta of insert 2 overtakes the one of insert 1 (they came on different channels).
            h.processElement(s(1, 1, 3), 4);
            h.processElement(r(1, 1, 2), 2);
            assertThat(h.getOutput()).as("held back until the watermark passes").isEmpty();
            h.processWatermark(4);
            // In insert order, R(1,1)=2 at insert 1 finds S zero; S at insert 2 sends 3·2 stamped 4.
            assertThat(h.getOutput()).containsExactly(up(1, 6, 4), new Watermark(4));
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void heldBackDeltasAndChildPayloadsSurviveSnapshotAndRestore(Backend backend) throws Exception {
        List<Step<Delta<Long>>> before = List.of(
                mark(1),
                element(r(1, 1, 2), 2),
                mark(2),
                element(s(1, 1, 3), 6), // above the watermark: held back in state
                element(r(2, 2, 7), 4),
                element(r(1, 1, 1), 8));
        List<Step<Delta<Long>>> after = List.of(
                mark(4),
                element(s(2, 2, 1), 10),
                mark(6),
                mark(8),
                mark(10),
                element(s(1, 1, 1), 12),
                mark(12));
        Outputs[] runs = Harnesses.straightAndRestored(restored -> harness(backend, restored), DEAD_LETTERS, before, after);
        assertThat(runs[1].normalized()).isEqualTo(runs[0].normalized());
        assertThat(runs[0].main()).containsExactly(new Watermark(1), new Watermark(2), new Watermark(4),
                up(1, 6, 6), new Watermark(6),
                up(1, 3, 8), new Watermark(8),
                up(2, 7, 10), new Watermark(10),
                up(1, 3, 12), new Watermark(12));
        assertThat(runs[0].side()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void anOverflowingProductBecomesADeadLetterAndLeavesTheViewUnchanged(Backend backend) throws Exception {
        try (var h = harness(backend, null)) {
            h.processWatermark(1);
            h.processElement(r(1, 1, Long.MAX_VALUE / 2), 2);
            h.processElement(s(1, 1, 3), 4);
            h.processElement(s(1, 1, 1), 6);
            h.processWatermark(6);
            assertThat(h.getSideOutput(DEAD_LETTERS)).singleElement().satisfies(d -> {
                assertThat(d.getTimestamp()).isEqualTo(4);
                assertThat(d.getValue().origin()).isEqualTo("insert 2");
                assertThat(d.getValue().reason()).startsWith("update of V[A,B]").contains("natural-number overflow");
            });
            // The failed delta was not added: S(1,1) is 1, not 4.
            assertThat(h.getOutput()).containsExactly(new Watermark(1), up(1, Long.MAX_VALUE / 2, 6), new Watermark(6));
        }
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void anInOrderInputProcessesAtOnce(Backend backend) throws Exception {
        try (var h = harness(true, backend, null)) {
            h.processElement(r(1, 1, 2), 2);
            h.processElement(s(1, 1, 3), 4);
            assertThat(h.getOutput()).containsExactly(up(1, 6, 4));
        }
    }

    /**
     * A job restored at a lower parallelism may give an operator a single in-order input channel
     * where it had several (in practice a root view or the sink). The deltas it held back in the
     * savepoint are older than everything that arrives now, so it must keep holding back until they
     * are released: outputs stay in timestamp order, and a product is stamped with its latest insert.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void heldBackDeltasRestoredIntoAnInOrderOperatorAreStillProcessedFirst(Backend backend) throws Exception {
        OperatorSubtaskState snapshot;
        try (var h = harness(false, backend, null)) {
            h.processWatermark(2);
            h.processElement(r(1, 1, 2), 4); // insert 2, held back
            snapshot = h.snapshot(1, 100);
        }
        try (var h = harness(true, backend, snapshot)) {
            h.processElement(s(1, 1, 3), 6); // insert 3, on the new single channel
            h.processWatermark(6);
            // As without the restore: R at insert 2 finds S zero; S at insert 3 sends 3·2 stamped 6.
            assertThat(h.getOutput()).containsExactly(up(1, 6, 6), new Watermark(6));
        }
    }
}
