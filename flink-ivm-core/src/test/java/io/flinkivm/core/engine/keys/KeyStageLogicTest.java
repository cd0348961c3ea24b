package io.flinkivm.core.engine.keys;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The key stages of revenue per segment, driven by hand: what each row does at each stage. */
class KeyStageLogicTest {
    static final KeyedPlan REVENUE = (KeyedPlan) Planner.plan(
            QueryParser.parse(
                    "Q(seg) :- customer(ck,seg), orders(ok,ck), lineitem(ok,'R') KEY customer(ck), orders(ok)"),
            NaturalSemiring.INSTANCE);
    static final int ORDERS = 0;
    static final int CUSTOMER = 1;

    /** Records what the logic sends, and runs the stages like the in-memory engine does. */
    static final class Stages implements KeyStageLogic.Output<Long> {
        final KeyStageLogic<Long> logic = new KeyStageLogic<>(REVENUE);
        final List<MemoryKeyStageStore<Long>> stores =
                List.of(new MemoryKeyStageStore<>(), new MemoryKeyStageStore<>());
        final List<String> ingested = new ArrayList<>();
        final List<String> sent = new ArrayList<>();
        final List<KeyViolation> violations = new ArrayList<>();
        private final List<Object[]> pending = new ArrayList<>();

        @Override
        public void toStage(int stage, StageRow<Long> row) {
            sent.add(stage + ":" + (row.isKeyRow() ? "key" : "atom " + row.atom() + " step " + row.step())
                    + row.values());
            pending.add(new Object[] {stage, row});
        }

        @Override
        public void toIngest(String relation, Tuple tuple, Long payload, String origin) {
            ingested.add(relation + tuple + "=" + payload);
        }

        @SuppressWarnings("unchecked")
        void insert(String relation, Tuple tuple, long payload) {
            logic.insert(logic.relation(relation), tuple, payload, null, this);
            while (!pending.isEmpty()) {
                Object[] next = pending.remove(0);
                int stage = (Integer) next[0];
                StageRow<Long> row = (StageRow<Long>) next[1];
                if (row.isKeyRow()) {
                    KeyViolation v = logic.keyRow(stage, stores.get(stage), row, this);
                    if (v != null) {
                        violations.add(v);
                    }
                } else {
                    logic.probe(stage, stores.get(stage), row, this);
                }
            }
        }
    }

    @Test
    void stagesFollowThePlan() {
        Stages s = new Stages();
        assertThat(s.logic.stages()).isEqualTo(2);
        assertThat(s.logic.targets(-1)).containsExactly(ORDERS, CUSTOMER);
        assertThat(s.logic.targets(ORDERS)).containsExactly(CUSTOMER);
        assertThat(s.logic.targets(CUSTOMER)).isEmpty();
        assertThat(s.logic.key(ORDERS, StageRow.keyRow(Tuple.of(7L, 1L), 1L, null)))
                .isEqualTo(Tuple.of(7L));
        assertThat(s.logic.key(ORDERS, new StageRow<>(2, 0, Tuple.of(7L, "R"), 1L, null)))
                .isEqualTo(Tuple.of(7L));
    }

    @Test
    void rowsWaitForTheirKeyRowsAndAreReleasedOnce() {
        Stages s = new Stages();
        s.insert("lineitem", Tuple.of(7L, "R"), 2);
        s.insert("lineitem", Tuple.of(7L, "R"), 3);
        assertThat(s.stores.get(ORDERS).waitingRows()).isEqualTo(2);
        s.insert("orders", Tuple.of(7L, 1L), 1);
        // Orders waits at customer's stage for its segment, and so do the two lineitems it released.
        assertThat(s.stores.get(ORDERS).waitingRows()).isZero();
        assertThat(s.stores.get(CUSTOMER).waitingRows()).isEqualTo(3);
        assertThat(s.ingested).isEmpty();
        s.insert("customer", Tuple.of(1L, "BUILDING"), 1);
        assertThat(s.ingested)
                .containsExactly(
                        "customer(1, BUILDING)=1",
                        "orders(7, 1, BUILDING)=1",
                        "lineitem(7, R, 1, BUILDING)=2",
                        "lineitem(7, R, 1, BUILDING)=3");
        assertThat(s.stores.get(CUSTOMER).waitingRows()).isZero();
        // The key row is stored: later rows go through at once, and nothing is released again.
        s.ingested.clear();
        s.insert("lineitem", Tuple.of(7L, "R"), 5);
        s.insert("customer", Tuple.of(1L, "BUILDING"), 4);
        assertThat(s.ingested).containsExactly("lineitem(7, R, 1, BUILDING)=5", "customer(1, BUILDING)=4");
        assertThat(s.stores.get(ORDERS).keyRows()).isEqualTo(1);
        assertThat(s.stores.get(CUSTOMER).keyRows()).isEqualTo(1);
    }

    @Test
    void aRowThatBreaksAKeyIsRejectedAndChangesNothing() {
        Stages s = new Stages();
        s.insert("orders", Tuple.of(7L, 1L), 1);
        s.sent.clear();
        s.insert("lineitem", Tuple.of(7L, "R"), 2);
        s.insert("orders", Tuple.of(7L, 2L), 1);
        assertThat(s.violations).hasSize(1);
        KeyViolation v = s.violations.get(0);
        assertThat(v.message())
                .isEqualTo("orders(7, 2) breaks KEY orders(ok) (column 0): orders(7, 1) is stored under the same key"
                        + " value (7); the row is rejected and changes nothing");
        assertThat(s.stores.get(ORDERS).keyRow(Tuple.of(7L))).isEqualTo(Tuple.of(7L, 1L));
        // Only the lineitem went on (to wait at customer's stage); the rejected orders row sent nothing.
        assertThat(s.sent).containsExactly("0:atom 2 step 0(7, R)", "1:atom 2 step 1(7, R, 1)", "0:key(7, 2)");
        assertThat(s.stores.get(CUSTOMER).waitingRows()).isEqualTo(2);
    }

    @Test
    void rowsThatFailTheirSelectionAreNotKept() {
        Stages s = new Stages();
        s.insert("lineitem", Tuple.of(7L, "N"), 2);
        assertThat(s.sent).isEmpty();
        assertThat(s.stores.get(ORDERS).waitingRows()).isZero();
    }

    @Test
    void theHeadsClosureIsLookedUpInTheStoredRows() {
        KeyedPlan q3 = (KeyedPlan) Planner.plan(
                QueryParser.parse("Q(ok,od) :- customer(ck), orders(ok,ck,od), lineitem(ok) KEY orders(ok)"),
                NaturalSemiring.INSTANCE);
        KeyStageLogic<Long> logic = new KeyStageLogic<>(q3);
        MemoryKeyStageStore<Long> orders = new MemoryKeyStageStore<>();
        assertThat(logic.closedHead(Tuple.of(7L, "d"), s -> orders)).isNull();
        orders.putKeyRow(Tuple.of(7L), Tuple.of(7L, 1L, "d"));
        assertThat(logic.closedHead(Tuple.of(7L, "d"), s -> orders)).isEqualTo(Tuple.of(7L, "d", 1L));
        // The stored order has another date: no such result tuple.
        assertThat(logic.closedHead(Tuple.of(7L, "e"), s -> orders)).isNull();
    }
}
