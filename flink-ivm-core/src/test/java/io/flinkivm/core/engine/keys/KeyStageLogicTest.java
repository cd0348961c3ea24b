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
        final KeyStageLogic<Long> logic;
        final List<MemoryKeyStageStore<Long>> stores = new ArrayList<>();
        final List<String> ingested = new ArrayList<>();
        final List<String> sent = new ArrayList<>();
        final List<String> dropped = new ArrayList<>();
        final List<KeyViolation> violations = new ArrayList<>();
        private final List<Object[]> pending = new ArrayList<>();

        Stages() {
            this(REVENUE);
        }

        Stages(KeyedPlan plan) {
            logic = new KeyStageLogic<>(plan, NaturalSemiring.INSTANCE);
            for (int s = 0; s < logic.stages(); s++) {
                stores.add(new MemoryKeyStageStore<>());
            }
        }

        @Override
        public void dropped(StageRow<Long> row) {
            dropped.add("atom " + row.atom() + row.values());
        }

        @Override
        public void toStage(int stage, StageRow<Long> row) {
            sent.add(stage + ":"
                    + (row.isDropped()
                            ? "dropped"
                            : row.isKeyRow() ? "key" : "atom " + row.atom() + " step " + row.step())
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
            run();
        }

        void filtered(String relation, Tuple tuple) {
            logic.dropped(logic.relation(relation), tuple, 1L, null, this);
            run();
        }

        @SuppressWarnings("unchecked")
        private void run() {
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
        assertThat(s.stores.get(ORDERS).keyRow(Tuple.of(7L))).isEqualTo(KeyRow.kept(Tuple.of(7L, 1L), 1L));
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

    /** Q12's shape with a selection on the orders it absorbs: orders(ok, '1-URGENT'). */
    static final KeyedPlan Q12 = (KeyedPlan) Planner.plan(
            QueryParser.parse("Q(sm) :- orders(ok,'1-URGENT'), lineitem(ok,sm) KEY orders(ok)"),
            NaturalSemiring.INSTANCE);

    @Test
    void anAbsorbedRowMultipliesItsPayloadIntoTheRowsThatLookItUpAndGoesNowhereElse() {
        assertThat(Q12.closedQuery()).hasToString("Q(sm) :- lineitem(ok,sm)");
        Stages s = new Stages(Q12);
        s.insert("lineitem", Tuple.of(7L, "AIR"), 2);
        s.insert("lineitem", Tuple.of(7L, "RAIL"), 3);
        assertThat(s.ingested).isEmpty();
        s.insert("orders", Tuple.of(7L, "1-URGENT"), 5);
        assertThat(s.ingested).containsExactly("lineitem(7, AIR)=10", "lineitem(7, RAIL)=15");
        s.insert("lineitem", Tuple.of(7L, "AIR"), 1);
        assertThat(s.ingested).endsWith("lineitem(7, AIR)=5");
        assertThat(s.stores.get(0).keyRow(Tuple.of(7L))).isEqualTo(KeyRow.kept(Tuple.of(7L, "1-URGENT"), 5L));
    }

    @Test
    void aKeyRowThatItsSelectionDropsIsAMarkThatDropsTheRowsThatLookItUp() {
        Stages s = new Stages(Q12);
        s.insert("lineitem", Tuple.of(8L, "AIR"), 2);
        assertThat(s.stores.get(0).waitingRows()).isEqualTo(1);
        s.insert("orders", Tuple.of(8L, "5-LOW"), 1);
        assertThat(s.sent).contains("0:dropped(8, 5-LOW)");
        // The waiting row is released as dropped, and so is every later one, at once.
        assertThat(s.stores.get(0).waitingRows()).isZero();
        s.insert("lineitem", Tuple.of(8L, "RAIL"), 4);
        assertThat(s.stores.get(0).waitingRows()).isZero();
        assertThat(s.dropped).containsExactly("atom 1(8, AIR)", "atom 1(8, RAIL)");
        assertThat(s.ingested).isEmpty();
        assertThat(s.stores.get(0).keyRow(Tuple.of(8L))).isEqualTo(KeyRow.droppedRow(Tuple.of(8L, "5-LOW")));
        // A row that a table's filter dropped (the SQL front end) is a mark too.
        s.filtered("orders", Tuple.of(9L, "1-URGENT"));
        s.insert("lineitem", Tuple.of(9L, "AIR"), 1);
        assertThat(s.dropped).endsWith("atom 1(9, AIR)");
        assertThat(s.ingested).isEmpty();
    }

    @Test
    void aSecondRowWithTheKeyOfAnAbsorbedTableIsRejectedEvenIfIdentical() {
        Stages s = new Stages(Q12);
        s.insert("orders", Tuple.of(7L, "1-URGENT"), 5);
        s.insert("orders", Tuple.of(7L, "1-URGENT"), 5);
        s.insert("orders", Tuple.of(7L, "5-LOW"), 1);
        s.insert("orders", Tuple.of(8L, "5-LOW"), 1);
        s.insert("orders", Tuple.of(8L, "1-URGENT"), 1);
        assertThat(s.violations)
                .extracting(KeyViolation::message)
                .containsExactly(
                        "orders(7, 1-URGENT) breaks KEY orders(ok) (column 0): orders(7, 1-URGENT) is stored under the"
                                + " same key value (7), and orders is absorbed into the rows that look it up, so a key"
                                + " value has one row, identical or not; the row is rejected and changes nothing",
                        "orders(7, 5-LOW) (dropped by the query's selection or filter) breaks KEY orders(ok) (column 0):"
                                + " orders(7, 1-URGENT) is stored under the same key value (7), and orders is absorbed"
                                + " into the rows that look it up, so a key value has one row, identical or not; the row"
                                + " is rejected and changes nothing",
                        "orders(8, 1-URGENT) breaks KEY orders(ok) (column 0): orders(8, 5-LOW) (dropped by the query's"
                                + " selection or filter) is stored under the same key value (8), and orders is absorbed"
                                + " into the rows that look it up, so a key value has one row, identical or not; the row"
                                + " is rejected and changes nothing");
        s.insert("lineitem", Tuple.of(7L, "AIR"), 1);
        assertThat(s.ingested).containsExactly("lineitem(7, AIR)=5");
    }

    @Test
    void aSnowflakeRowTakesThePayloadsOfEveryTableFoldedIntoIt() {
        KeyedPlan snowflake = (KeyedPlan) Planner.plan(
                QueryParser.parse("Q() :- shipment(c,p,o), item_return(o), orders(o,r), product(p), carrier(c),"
                        + " region(r) KEY orders(o), product(p), carrier(c), region(r)"),
                NaturalSemiring.INSTANCE);
        assertThat(snowflake.closedQuery()).hasToString("Q() :- shipment(c,p,o), item_return(o)");
        Stages s = new Stages(snowflake);
        s.insert("shipment", Tuple.of(1L, 2L, 3L), 2);
        s.insert("item_return", Tuple.of(3L), 1);
        s.insert("region", Tuple.of(4L), 3);
        s.insert("carrier", Tuple.of(1L), 5);
        s.insert("product", Tuple.of(2L), 7);
        // Only item_return's row reached the view trees: shipment's waits for its order.
        assertThat(s.ingested).containsExactly("item_return(3)=1");
        s.insert("orders", Tuple.of(3L, 4L), 11);
        assertThat(s.ingested).containsExactly("item_return(3)=1", "shipment(1, 2, 3)=" + 2 * 3 * 5 * 7 * 11);
    }
}
