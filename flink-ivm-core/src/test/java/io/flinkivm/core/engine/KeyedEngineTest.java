package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The in-memory engine of plans that rely on keys, on the worked examples. */
class KeyedEngineTest {
    static final NaturalSemiring K = NaturalSemiring.INSTANCE;

    static IvmEngine<Long> engine(String query, boolean changelog) {
        MaintenancePlan plan = Planner.plan(QueryParser.parse(query), K);
        assertThat(plan).isInstanceOf(KeyedPlan.class);
        return changelog ? Engines.withChangelog(plan, K) : Engines.create(plan, K);
    }

    static Map<Tuple, Long> result(IvmEngine<Long> e) {
        Map<Tuple, Long> out = CyclicPHierarchicalEngineTest.result(e);
        Map<Tuple, Long> read = new HashMap<>();
        for (ResultCursor<Long> c = e.cursor(); c.next(); ) {
            read.put(c.tuple(), c.payload());
        }
        assertThat(read).isEqualTo(out);
        return out;
    }

    @Test
    void revenuePerSegmentWithLineitemsBeforeTheirOrders() {
        IvmEngine<Long> e = engine(
                "Q(seg) :- customer(ck,seg), orders(ok,ck), lineitem(ok,rev) KEY customer(ck), orders(ok)", false);
        e.insert("lineitem", Tuple.of(10L, 5L), 5L);
        e.insert("lineitem", Tuple.of(10L, 6L), 6L);
        e.insert("lineitem", Tuple.of(11L, 7L), 7L);
        assertThat(result(e)).isEmpty();
        assertThat(((KeyedEngine<Long>) e).waitingRows()).isEqualTo(3);
        e.insert("orders", Tuple.of(10L, 1L), 1L);
        e.insert("orders", Tuple.of(11L, 2L), 1L);
        e.insert("customer", Tuple.of(1L, "BUILDING"), 1L);
        assertThat(result(e)).isEqualTo(Map.of(Tuple.of("BUILDING"), 11L));
        e.insert("customer", Tuple.of(2L, "MACHINERY"), 1L);
        assertThat(result(e)).isEqualTo(Map.of(Tuple.of("BUILDING"), 11L, Tuple.of("MACHINERY"), 7L));
        assertThat(((KeyedEngine<Long>) e).waitingRows()).isZero();
        // A repeated identical order adds its payload, as a repeated row does.
        e.insert("orders", Tuple.of(11L, 2L), 1L);
        assertThat(e.lookup(Tuple.of("MACHINERY"))).isEqualTo(14L);
        assertThat(e.insertCount()).isEqualTo(8);
    }

    @Test
    void aRowThatBreaksAKeyIsRejectedAndChangesNothing() {
        IvmEngine<Long> e = engine(
                "Q(seg) :- customer(ck,seg), orders(ok,ck), lineitem(ok,rev) KEY customer(ck), orders(ok)", false);
        e.insert("customer", Tuple.of(1L, "BUILDING"), 1L);
        e.insert("orders", Tuple.of(10L, 1L), 1L);
        e.insert("lineitem", Tuple.of(10L, 5L), 5L);
        long entries = e.stateEntries();
        assertThatThrownBy(() -> e.insert("orders", Tuple.of(10L, 2L), 1L))
                .isInstanceOf(KeyViolationException.class)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("orders(10, 2) breaks KEY orders(ok) (column 0): orders(10, 1) is stored under the same"
                        + " key value (10); the row is rejected and changes nothing");
        assertThatThrownBy(() -> e.insert("customer", Tuple.of(1L, "MACHINERY"), 1L))
                .isInstanceOf(KeyViolationException.class)
                .hasMessageContaining("breaks KEY customer(ck)");
        assertThat(e.stateEntries()).isEqualTo(entries);
        assertThat(e.insertCount()).isEqualTo(3);
        assertThat(result(e)).isEqualTo(Map.of(Tuple.of("BUILDING"), 5L));
        // A row of a key not relied on is no violation; a wrong arity is still an IllegalArgumentException.
        assertThatThrownBy(() -> e.insert("orders", Tuple.of(10L), 1L))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("relation orders has arity 2");
    }

    @Test
    void tpchQ3ResultsAreOverTheQuerysHead() {
        IvmEngine<Long> e = engine(
                "Q(ok,od,sp) :- customer(ck), orders(ok,ck,od,sp), lineitem(ok,rev) KEY customer(ck), orders(ok)",
                true);
        e.insert("lineitem", Tuple.of(10L, 5L), 5L);
        e.insert("orders", Tuple.of(10L, 1L, "d", 0L), 1L);
        e.insert("customer", Tuple.of(1L), 1L);
        assertThat(result(e)).isEqualTo(Map.of(Tuple.of(10L, "d", 0L), 5L));
        assertThat(e.lookup(Tuple.of(10L, "d", 0L))).isEqualTo(5L);
        assertThat(e.lookup(Tuple.of(10L, "e", 0L))).isZero();
        assertThat(e.lookup(Tuple.of(11L, "d", 0L))).isZero();
        Map<Tuple, Long> changes = new HashMap<>();
        e.changes((ResultChange<Long> c) -> changes.put(c.tuple(), c.payload()));
        assertThat(changes).isEqualTo(Map.of(Tuple.of(10L, "d", 0L), 5L));
        assertThatThrownBy(() -> e.lookup(Tuple.of(10L)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has 3 values (ok,od,sp)");
    }

    @Test
    void payloadZeroIsANoOpThatSetsNoKey() {
        IvmEngine<Long> e = engine("Q(ok,od) :- customer(ck), orders(ok,ck,od), lineitem(ok) KEY orders(ok)", false);
        e.insert("orders", Tuple.of(10L, 1L, "d"), 0L);
        e.insert("orders", Tuple.of(10L, 2L, "d"), 1L);
        e.insert("customer", Tuple.of(2L), 1L);
        e.insert("lineitem", Tuple.of(10L), 3L);
        assertThat(result(e)).isEqualTo(Map.of(Tuple.of(10L, "d"), 3L));
        assertThat(e.insertCount()).isEqualTo(4);
    }

    @Test
    void aKeyRowThatItsTablesFilterDroppedDropsTheRowsThatLookItUp() {
        // TPC-H Q12's shape: orders absorbed into lineitem; in SQL a filter on orders drops rows before
        // they become inserts, and the front end tells the engine of them.
        MaintenancePlan plan =
                Planner.plan(QueryParser.parse("Q(sm) :- orders(ok), lineitem(ok,sm) KEY orders(ok)"), K);
        KeyedEngine<Long> e = (KeyedEngine<Long>) Engines.create(plan, K);
        e.insert("lineitem", Tuple.of(7L, "AIR"), 2L);
        e.insert("lineitem", Tuple.of(8L, "AIR"), 3L);
        assertThat(e.waitingRows()).isEqualTo(2);
        e.filtered("orders", Tuple.of(7L), false);
        e.insert("orders", Tuple.of(8L), 5L);
        assertThat(e.waitingRows()).isZero();
        assertThat(e.droppedRows()).isEqualTo(1);
        e.insert("lineitem", Tuple.of(7L, "RAIL"), 1L);
        assertThat(e.droppedRows()).isEqualTo(2);
        assertThat(result(e)).isEqualTo(Map.of(Tuple.of("AIR"), 15L));
        // The dropped row holds its key value: another row with it breaks the key.
        assertThatThrownBy(() -> e.insert("orders", Tuple.of(7L), 1L))
                .isInstanceOf(KeyViolationException.class)
                .hasMessageContaining("orders(7) (dropped by the query's selection or filter) is stored under the same"
                        + " key value (7)");
        // Engines of plans without key stages ignore dropped rows.
        IvmEngine<Long> plain = Engines.create(Planner.plan(QueryParser.parse("Q(sm) :- lineitem(ok,sm)"), K), K);
        plain.filtered("lineitem", Tuple.of(7L, "AIR"), false);
        assertThat(result(plain)).isEmpty();
    }

    @Test
    void aRowOfATableWithTwoAbsorbedRelationsBreaksItsKeyOnce() {
        // One table joined under two aliases with different filters (SQL's orders_a, orders_b): its rows
        // reach both stages, as a row where the alias's filter keeps it and as a mark where it drops it.
        KeyedPlan plan = ((KeyedPlan) Planner.plan(
                        QueryParser.parse("Q(sm) :- lineitem(ok,ok2,sm), orders_a(ok), orders_b(ok2)"
                                + " KEY orders_a(ok), orders_b(ok2)"),
                        K))
                .withTables(Map.of("orders_a", "orders", "orders_b", "orders"));
        assertThat(plan.absorbs("orders_a")).isTrue();
        assertThat(plan.absorbs("orders_b")).isTrue();
        String reporter = plan.reporter("orders_a");
        assertThat(plan.reporter("orders_b")).isEqualTo(reporter).isIn("orders_a", "orders_b");
        assertThat(plan.explain())
                .contains(", its rejected rows reported by " + reporter + "'s stage (one table)")
                .contains(", reports the rows of table orders that break its key once, also for ");
        KeyedEngine<Long> e = (KeyedEngine<Long>) Engines.create(plan, K);
        e.insert("lineitem", Tuple.of(1L, 2L, "AIR"), 1L);
        e.insert("orders_a", Tuple.of(1L), 2L); // order 1 passes a's filter, not b's
        e.filtered("orders_b", Tuple.of(1L), false);
        e.filtered("orders_a", Tuple.of(2L), false); // order 2 passes b's filter, not a's
        e.insert("orders_b", Tuple.of(2L), 3L);
        assertThat(result(e)).isEqualTo(Map.of(Tuple.of("AIR"), 6L));
        // A second row of order 1, kept by a's filter and dropped by b's: one violation, reported once.
        int reported = 0;
        try {
            e.insert("orders_a", Tuple.of(1L), 5L);
        } catch (KeyViolationException v) {
            assertThat(v.violation().relation()).isEqualTo(reporter);
            reported++;
        }
        try {
            e.filtered("orders_b", Tuple.of(1L), false);
        } catch (KeyViolationException v) {
            assertThat(v.violation().relation()).isEqualTo(reporter);
            reported++;
        }
        assertThat(reported).isEqualTo(1);
        assertThat(result(e)).isEqualTo(Map.of(Tuple.of("AIR"), 6L));
        // Without the tables, each stage reports it.
        KeyedEngine<Long> apart = (KeyedEngine<Long>) Engines.create(plan.withTables(Map.of()), K);
        apart.insert("orders_a", Tuple.of(1L), 2L);
        apart.filtered("orders_b", Tuple.of(1L), false);
        assertThatThrownBy(() -> apart.insert("orders_a", Tuple.of(1L), 5L)).isInstanceOf(KeyViolationException.class);
        assertThatThrownBy(() -> apart.filtered("orders_b", Tuple.of(1L), false))
                .isInstanceOf(KeyViolationException.class);
    }
}
