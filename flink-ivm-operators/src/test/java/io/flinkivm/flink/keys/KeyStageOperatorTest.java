package io.flinkivm.flink.keys;

import static io.flinkivm.flink.common.Harnesses.element;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.keys.KeyStageLogic;
import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.common.Harnesses;
import io.flinkivm.flink.common.Harnesses.Backend;
import io.flinkivm.flink.common.Harnesses.Outputs;
import io.flinkivm.flink.common.Harnesses.Step;
import io.flinkivm.flink.common.StateTtl;
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
 * Key stages in a harness, heap and RocksDB: the stage of customer in revenue per segment, where rows
 * of orders and lineitem wait for their customer across a snapshot and restore, then are released
 * once, and a customer row that breaks the key is a dead letter; the stage of an absorbed table, which
 * keeps each key row's payload and the marks of dropped key rows across a restore; a key stage's state
 * of the format before payloads and marks is refused.
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
        KeyStageLogic<Long> logic = new KeyStageLogic<>(REVENUE, K);
        List<OutputTag<StageRow<Long>>> tags = new ArrayList<>();
        for (int s = 0; s < logic.stages(); s++) {
            tags.add(new OutputTag<>("stage-" + s, StageRowTypeInfo.of(K)));
        }
        return Harnesses.keyed(
                () -> new KeyStageOperator<>(REVENUE, K, CUSTOMER, PayloadTypes.of(K), tags, DEAD, StateTtl.NONE),
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
        KeyStageLogic<Long> logic = new KeyStageLogic<>(REVENUE, K);
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
                    new KeyStageOperator<>(REVENUE, K, CUSTOMER, PayloadTypes.of(K), tags, DEAD, StateTtl.NONE),
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

    /** Q12's shape: orders(ok, '1-URGENT') absorbed into lineitem, whose rows take its payload. */
    static final KeyedPlan Q12 = (KeyedPlan)
            Planner.plan(QueryParser.parse("Q(sm) :- orders(ok,'1-URGENT'), lineitem(ok,sm) KEY orders(ok)"), K);

    static final int ORDERS = Q12.stage("orders");

    static KeyedOneInputStreamOperatorTestHarness<Tuple, StageRow<Long>, InputRecord<Long>> absorbing(
            Backend backend, OperatorSubtaskState restored) throws Exception {
        KeyStageLogic<Long> logic = new KeyStageLogic<>(Q12, K);
        List<OutputTag<StageRow<Long>>> tags = List.of(new OutputTag<>("stage-0", StageRowTypeInfo.of(K)));
        return Harnesses.keyed(
                () -> new KeyStageOperator<>(Q12, K, ORDERS, PayloadTypes.of(K), tags, DEAD, StateTtl.NONE),
                row -> logic.key(ORDERS, row),
                backend,
                restored);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void anAbsorbedStageKeepsPayloadsAndMarksAcrossARestore(Backend backend) throws Exception {
        // Lineitem (atom 1) rows wait for orders 7 and 8; order 7 is urgent (payload 5), order 8 is not.
        List<Step<StageRow<Long>>> before = List.of(
                element(new StageRow<>(1, 0, Tuple.of(7L, "AIR"), 2L, "l1")),
                element(StageRow.keyRow(Tuple.of(7L, "1-URGENT"), 5L, "o7")),
                element(StageRow.dropped(Tuple.of(8L, "5-LOW"), 1L, "o8")),
                element(new StageRow<>(1, 0, Tuple.of(9L, "AIR"), 3L, "l2")));
        List<Step<StageRow<Long>>> after = List.of(
                element(new StageRow<>(1, 0, Tuple.of(7L, "RAIL"), 3L, "l3")),
                element(new StageRow<>(1, 0, Tuple.of(8L, "RAIL"), 3L, "l4")),
                element(StageRow.keyRow(Tuple.of(7L, "1-URGENT"), 5L, "o7 again")),
                element(StageRow.keyRow(Tuple.of(8L, "1-URGENT"), 1L, "o8 other")),
                element(StageRow.keyRow(Tuple.of(9L, "1-URGENT"), 4L, "o9")));
        Outputs[] runs = Harnesses.straightAndRestored(
                restored -> absorbing(backend, restored), Harnesses::play, DEAD, before, after);
        assertThat(runs[1]).isEqualTo(runs[0]);
        // Orders go nowhere; lineitems take their order's payload, or are dropped with order 8.
        assertThat(runs[0].values())
                .containsExactly(
                        InputRecord.insert("lineitem", Tuple.of(7L, "AIR"), 10L, "l1"),
                        InputRecord.insert("lineitem", Tuple.of(7L, "RAIL"), 15L, "l3"),
                        InputRecord.insert("lineitem", Tuple.of(9L, "AIR"), 12L, "l2"));
        assertThat(runs[0].side())
                .extracting(r -> ((DeadLetter) ((StreamRecord<?>) r).getValue()).origin())
                .containsExactly("o7 again", "o8 other");
        DeadLetter identical = (DeadLetter) ((StreamRecord<?>) runs[0].side().get(0)).getValue();
        assertThat(identical.reason())
                .isEqualTo("orders(7, 1-URGENT) breaks KEY orders(ok) (column 0): orders(7, 1-URGENT) is stored under"
                        + " the same key value (7), and orders is absorbed into the rows that look it up, so a key value"
                        + " has one row, identical or not; the row is rejected and changes nothing");
        DeadLetter overMark = (DeadLetter) ((StreamRecord<?>) runs[0].side().get(1)).getValue();
        assertThat(overMark.reason())
                .contains("orders(8, 5-LOW) (dropped by the query's selection or filter) is stored");
    }

    /** Q12's shape with deletes in both tables: the stage of orders keeps the lineitems that look it up. */
    static final KeyedPlan Q12_CHANGES = (KeyedPlan) Planner.plan(
            QueryParser.parse("Q(sm) :- orders(ok,'1-URGENT'), lineitem(ok,sm) KEY orders(ok)"),
            IntegerRing.INSTANCE,
            Planner.Strategy.AUTO,
            Inputs.changelog("orders", "lineitem"));

    static KeyedOneInputStreamOperatorTestHarness<Tuple, StageRow<Long>, InputRecord<Long>> changing(
            Backend backend, OperatorSubtaskState restored) throws Exception {
        IntegerRing z = IntegerRing.INSTANCE;
        int stage = Q12_CHANGES.stage("orders");
        KeyStageLogic<Long> logic = new KeyStageLogic<>(Q12_CHANGES, z);
        List<OutputTag<StageRow<Long>>> tags = List.of(new OutputTag<>("stage-0", StageRowTypeInfo.of(z)));
        return Harnesses.keyed(
                () -> new KeyStageOperator<>(Q12_CHANGES, z, stage, PayloadTypes.of(z), tags, DEAD, StateTtl.NONE),
                row -> logic.key(stage, row),
                backend,
                restored);
    }

    @ParameterizedTest
    @EnumSource(Backend.class)
    void underDeletesAKeyRowsUpdateRetractsAndReEmitsTheRowsThatLookItUp(Backend backend) throws Exception {
        List<Step<StageRow<Long>>> before = List.of(
                element(new StageRow<>(1, 0, Tuple.of(7L, "AIR"), 2L, "l1")),
                element(StageRow.keyRow(Tuple.of(7L, "1-URGENT"), 5L, "o7")),
                element(new StageRow<>(1, 0, Tuple.of(7L, "RAIL"), 1L, "l2")));
        List<Step<StageRow<Long>>> after = List.of(
                // The order's update: its old row goes (a retraction of the inverse), its new one comes.
                element(new StageRow<>(StageRow.KEY_ROW, 0, Tuple.of(7L, "1-URGENT"), -5L, "o7 -U", true)),
                element(StageRow.keyRow(Tuple.of(7L, "1-URGENT"), 3L, "o7 +U")),
                // A lineitem goes; a second order 7 breaks the key; a delete of an order that is not there.
                element(new StageRow<>(1, 0, Tuple.of(7L, "AIR"), -2L, "l1 -D", true)),
                element(StageRow.keyRow(Tuple.of(7L, "1-URGENT"), 1L, "o7 again")),
                element(new StageRow<>(StageRow.KEY_ROW, 0, Tuple.of(8L, "1-URGENT"), -1L, "o8 -D", true)));
        Outputs[] runs = Harnesses.straightAndRestored(
                restored -> changing(backend, restored), Harnesses::play, DEAD, before, after);
        // The rows that look a key up are re-emitted in the order of the key's state, which a restore
        // may change: the same changes, as a multiset.
        assertThat(runs[1].normalized()).isEqualTo(runs[0].normalized());
        assertThat(runs[0].values())
                .containsExactlyInAnyOrder(
                        InputRecord.insert("lineitem", Tuple.of(7L, "AIR"), 10L, null),
                        InputRecord.insert("lineitem", Tuple.of(7L, "RAIL"), 5L, "l2"),
                        InputRecord.insert("lineitem", Tuple.of(7L, "AIR"), -10L, null),
                        InputRecord.insert("lineitem", Tuple.of(7L, "RAIL"), -5L, null),
                        InputRecord.insert("lineitem", Tuple.of(7L, "AIR"), 6L, null),
                        InputRecord.insert("lineitem", Tuple.of(7L, "RAIL"), 3L, null),
                        InputRecord.insert("lineitem", Tuple.of(7L, "AIR"), -6L, "l1 -D"));
        assertThat(runs[0].side())
                .extracting(r -> ((DeadLetter) ((StreamRecord<?>) r).getValue()).reason())
                .containsExactly(
                        "orders(7, 1-URGENT) breaks KEY orders(ok) (column 0): orders(7, 1-URGENT) is stored under the"
                                + " same key value (7), and orders is absorbed into the rows that look it up, so a key"
                                + " value has one row, identical or not; the row is rejected and changes nothing",
                        "a delete of orders(8, 1-URGENT): the key stage of KEY orders(ok) holds no row under its key"
                                + " value (8) (it was deleted, or rejected when it came); the delete is rejected and"
                                + " changes nothing");
    }

    /**
     * A savepoint of a key stage from before key rows kept their payloads (the row alone, with the tuple
     * serializer, under the same state name) is refused when the stage restores it.
     */
    @ParameterizedTest
    @EnumSource(Backend.class)
    void stateOfTheFormatBeforePayloadsIsRefused(Backend backend) throws Exception {
        OperatorSubtaskState old;
        try (var h = Harnesses.keyed(
                () -> new OldKeyStage(), (StageRow<Long> row) -> row.values().project(new int[] {0}), backend, null)) {
            h.processElement(new StreamRecord<>(StageRow.keyRow(Tuple.of(7L, "1-URGENT"), 5L, null)));
            old = h.snapshot(1L, 100L);
        }
        Throwable refused = org.assertj.core.api.Assertions.catchThrowable(() -> absorbing(backend, old));
        StringBuilder messages = new StringBuilder();
        for (Throwable t = refused; t != null; t = t.getCause()) {
            messages.append(t).append('\n');
        }
        assertThat(messages.toString())
                .contains("KeyRowSerializer")
                .containsPattern("TupleSerializer \\(format \\d+\\)")
                .containsAnyOf("must not be incompatible", "incompatible");
    }

    /** A key stage as it kept its rows before they had payloads: the row alone, under {@code key-row}. */
    static final class OldKeyStage extends org.apache.flink.streaming.api.operators.AbstractStreamOperator<Object>
            implements org.apache.flink.streaming.api.operators.OneInputStreamOperator<StageRow<Long>, Object> {
        private transient org.apache.flink.api.common.state.ValueState<Tuple> row;

        @Override
        public void open() throws Exception {
            super.open();
            row = getRuntimeContext()
                    .getState(new org.apache.flink.api.common.state.ValueStateDescriptor<>(
                            io.flinkivm.flink.common.StateNames.KEY_ROW,
                            io.flinkivm.flink.types.TupleSerializer.INSTANCE));
        }

        @Override
        public void processElement(StreamRecord<StageRow<Long>> element) throws Exception {
            row.update(element.getValue().values());
        }
    }
}
