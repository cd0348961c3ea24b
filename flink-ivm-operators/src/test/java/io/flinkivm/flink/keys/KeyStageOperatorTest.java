package io.flinkivm.flink.keys;

import static io.flinkivm.flink.common.Harnesses.element;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.keys.KeyStageLogic;
import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.common.Harnesses;
import io.flinkivm.flink.common.Harnesses.Backend;
import io.flinkivm.flink.common.Harnesses.Outputs;
import io.flinkivm.flink.common.Harnesses.Step;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.DeadLetterTypeInfo;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.StageRowTypeInfo;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The key stage of customer in revenue per segment, in a harness: rows of orders and lineitem wait
 * for their customer across a snapshot and restore, then are released once; a customer row that
 * breaks the key is a dead letter. Heap and RocksDB.
 */
class KeyStageOperatorTest {
    static final NaturalSemiring K = NaturalSemiring.INSTANCE;
    static final KeyedPlan REVENUE = (KeyedPlan) Planner.plan(
            QueryParser.parse("Q(seg) :- customer(ck,seg), orders(ok,ck), lineitem(ok) KEY customer(ck), orders(ok)"),
            K);
    static final int CUSTOMER = REVENUE.stage("customer");
    static final OutputTag<DeadLetter> DEAD = new OutputTag<>("dead", DeadLetterTypeInfo.INSTANCE);

    static KeyedOneInputStreamOperatorTestHarness<Tuple, StageRow<Long>, InputRecord<Long>> harness(
            Backend backend, OperatorSubtaskState restored) throws Exception {
        KeyStageLogic<Long> logic = new KeyStageLogic<>(REVENUE);
        List<OutputTag<StageRow<Long>>> tags = new ArrayList<>();
        for (int s = 0; s < logic.stages(); s++) {
            tags.add(new OutputTag<>("stage-" + s, StageRowTypeInfo.of(K)));
        }
        return Harnesses.keyed(
                () -> new KeyStageOperator<>(REVENUE, CUSTOMER, PayloadTypes.of(K), tags, DEAD),
                row -> logic.key(CUSTOMER, row),
                backend,
                restored);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void rowsWaitAcrossARestoreAndAreReleasedOnce(Backend backend) throws Exception {
        // Orders (atom 1) and a lineitem already extended by its orders (atom 2, second lookup) wait for customer 1.
        List<Step<StageRow<Long>>> before = List.of(
                element(new StageRow<>(1, 0, Tuple.of(10L, 1L), 1L, "o10")),
                element(new StageRow<>(2, 1, Tuple.of(10L, 1L), 5L, "l1")),
                element(new StageRow<>(2, 1, Tuple.of(11L, 2L), 7L, "l2")));
        List<Step<StageRow<Long>>> after = List.of(
                element(StageRow.keyRow(Tuple.of(1L, "BUILDING"), 1L, "c1")),
                element(StageRow.keyRow(Tuple.of(1L, "BUILDING"), 1L, "c1 again")),
                element(new StageRow<>(2, 1, Tuple.of(12L, 1L), 3L, "l3")),
                element(StageRow.keyRow(Tuple.of(1L, "MACHINERY"), 1L, "c1 other")),
                element(StageRow.keyRow(Tuple.of(2L, "MACHINERY"), 1L, "c2")));
        Outputs[] runs = Harnesses.straightAndRestored(
                restored -> harness(backend, restored), Harnesses::play, DEAD, before, after);
        assertThat(runs[1]).isEqualTo(runs[0]);
        assertThat(runs[0].values())
                .containsExactly(
                        InputRecord.insert("customer", Tuple.of(1L, "BUILDING"), 1L, "c1"),
                        InputRecord.insert("orders", Tuple.of(10L, 1L, "BUILDING"), 1L, "o10"),
                        InputRecord.insert("lineitem", Tuple.of(10L, 1L, "BUILDING"), 5L, "l1"),
                        InputRecord.insert("customer", Tuple.of(1L, "BUILDING"), 1L, "c1 again"),
                        InputRecord.insert("lineitem", Tuple.of(12L, 1L, "BUILDING"), 3L, "l3"),
                        InputRecord.insert("customer", Tuple.of(2L, "MACHINERY"), 1L, "c2"),
                        InputRecord.insert("lineitem", Tuple.of(11L, 2L, "MACHINERY"), 7L, "l2"));
        assertThat(runs[0].side()).hasSize(1);
        DeadLetter dead = (DeadLetter) ((StreamRecord<?>) runs[0].side().get(0)).getValue();
        assertThat(dead.origin()).isEqualTo("c1 other");
        assertThat(dead.reason())
                .isEqualTo("customer(1, MACHINERY) breaks KEY customer(ck) (column 0): customer(1, BUILDING) is stored"
                        + " under the same key value (1); the row is rejected and changes nothing");
        assertThat(dead.record()).isEqualTo("Insert[customer(1, MACHINERY) ↦ 1 from c1 other]");
    }

    /**
     * Rows that wait at one subtask are restored, after a rescale to two, at the subtask that owns their
     * key value, and released there by their key rows.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    @SuppressWarnings("unchecked")
    void waitingRowsFollowTheirKeysWhenRescaled(Backend backend) throws Exception {
        KeyStageLogic<Long> logic = new KeyStageLogic<>(REVENUE);
        OperatorSubtaskState one;
        try (var h = harness(backend, null)) {
            for (long ck = 1; ck <= 6; ck++) {
                h.processElement(new StreamRecord<>(new StageRow<>(1, 0, Tuple.of(10 + ck, ck), 1L, null)));
            }
            one = h.snapshot(1L, 100L);
        }
        List<InputRecord<Long>> released = new ArrayList<>();
        for (int subtask = 0; subtask < 2; subtask++) {
            OperatorSubtaskState part = AbstractStreamOperatorTestHarness.repartitionOperatorState(
                    one, Harnesses.MAX_PARALLELISM, 1, 2, subtask);
            List<OutputTag<StageRow<Long>>> tags = new ArrayList<>();
            for (int s = 0; s < logic.stages(); s++) {
                tags.add(new OutputTag<>("stage-" + s, StageRowTypeInfo.of(K)));
            }
            try (var h = new KeyedOneInputStreamOperatorTestHarness<Tuple, StageRow<Long>, InputRecord<Long>>(
                    new KeyStageOperator<>(REVENUE, CUSTOMER, PayloadTypes.of(K), tags, DEAD),
                    row -> logic.key(CUSTOMER, row),
                    TupleTypeInfo.INSTANCE,
                    Harnesses.MAX_PARALLELISM,
                    2,
                    subtask)) {
                Harnesses.open(h, backend, part);
                for (long ck = 1; ck <= 6; ck++) {
                    Tuple key = Tuple.of(ck);
                    if (KeyGroupRangeAssignment.assignKeyToParallelOperator(key, Harnesses.MAX_PARALLELISM, 2)
                            == subtask) {
                        h.processElement(new StreamRecord<>(StageRow.keyRow(Tuple.of(ck, "S" + ck), 1L, null)));
                    }
                }
                for (Object v : Harnesses.outputs(h, null).values()) {
                    released.add((InputRecord<Long>) v);
                }
            }
        }
        assertThat(released.stream().filter(r -> r.relation().equals("orders")).map(InputRecord::tuple))
                .containsExactlyInAnyOrder(
                        Tuple.of(11L, 1L, "S1"),
                        Tuple.of(12L, 2L, "S2"),
                        Tuple.of(13L, 3L, "S3"),
                        Tuple.of(14L, 4L, "S4"),
                        Tuple.of(15L, 5L, "S5"),
                        Tuple.of(16L, 6L, "S6"));
    }
}
