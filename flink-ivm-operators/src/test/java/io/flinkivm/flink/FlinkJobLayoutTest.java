package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.partition.RelationRates;
import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.WindowSpec;
import io.flinkivm.core.window.Windows;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FlinkJobLayoutTest {

    static FlinkJobLayout layout(String query, int parallelism) {
        MaintenancePlan plan = Planner.plan(QueryParser.parse(query), NaturalSemiring.INSTANCE);
        return FlinkJobLayout.of(plan, parallelism);
    }

    /**
     * The fallback checks deletes itself, against its atoms' relations and the rows no atom matches: no
     * row check in front of its ingest; a q-hierarchical plan keeps the row check.
     */
    @Test
    void theFallbackChecksDeletesItselfOtherPlansBehindTheRowCheck() {
        MaintenancePlan plan = Planner.plan(
                QueryParser.parse("Q(A,C) :- R(A,B), R(B,C), S(C,D), T(D,'x')"),
                IntegerRing.INSTANCE,
                Planner.Strategy.AUTO,
                Inputs.changelog("R", "T"));
        FlinkJobLayout l = FlinkJobLayout.of(plan, 2, RelationRates.none(), true);
        assertThat(l.fallbackChecks()).containsExactly("R", "T");
        assertThat(l.rowCheck()).isNull();
        assertThat(l.ingest().input())
                .isEqualTo("forward from a source at the same parallelism, else hash(relation, row)");
        assertThat(FlinkJobLayout.of(plan, 2, RelationRates.none(), false).fallbackChecks())
                .as("without the row check nothing is checked")
                .isEmpty();
        FlinkJobLayout star = FlinkJobLayout.of(
                Planner.plan(
                        QueryParser.parse("Q(A) :- R(A,B), S(A,C)"),
                        IntegerRing.INSTANCE,
                        Planner.Strategy.AUTO,
                        Inputs.changelog("R")),
                2,
                RelationRates.none(),
                true);
        assertThat(star.fallbackChecks()).isEmpty();
        assertThat(star.rowCheck().name()).startsWith("row check R ");
    }

    @Test
    void aVariableInEveryRootSchemaKeysTheSink() {
        FlinkJobLayout l = layout("Q(A,B) :- R(A,B,C), S(A,B,C), T(A,D)", 4);
        assertThat(l.hashVariable()).isEqualTo("A");
        assertThat(l.shares()).isNull();
        assertThat(l.trees()).extracting(FlinkJobLayout.Operator::input).containsExactly("hash(A,B)");
        assertThat(l.directTrees())
                .as("V[A] over T(A,D) has no state below its root")
                .containsExactly(1);
        assertThat(l.treeOperator(1)).isNull();
        assertThat(l.shufflesPerInsert()).isEqualTo(2);
        assertThat(l.sink().input()).startsWith("hash(A); V[A] straight from the ingest (no state below the root);");
        assertThat(l.sink().parallelism()).isEqualTo(4);
        assertThat(layout("Q(A,B) :- R(A,B,C), S(A,B,C), T(A,D)", 1).sink().input())
                .as("the same partitioning at parallelism 1 (savepoints restore across parallelisms)")
                .startsWith("hash(A);");
    }

    @Test
    void tpchSpreadsTheSinkOverCells() {
        FlinkJobLayout l = layout("Revenue(O,C) :- Customer(C,N,'BUILDING'), Orders(O,C,D), Lineitem(O,L)", 4);
        assertThat(l.sink().input()).startsWith("shares O=2 C=2 (4 cells; replication: V[C] 2, V[O,C] 1, V[O] 2)");
        assertThat(l.operators())
                .extracting(FlinkJobLayout.Operator::parallelism)
                .containsOnly(4);
        assertThat(l.trees())
                .as("a foreign-key join: no tree has state below its root")
                .isEmpty();
        assertThat(l.directTrees()).containsExactly(0, 1, 2);
        assertThat(l.shufflesPerInsert()).isEqualTo(1);
        assertThat(l.sink().input()).contains("; V[C], V[O,C], V[O] straight from the ingest");
    }

    @Test
    void aKeyedPlanHasItsKeyStagesInFrontOfTheIngestAndItsProjectionAfterTheSink() {
        String q3 = "Q(ok,od,sp) :- customer(ck), orders(ok,ck,od,sp), lineitem(ok,ck2) KEY customer(ck), orders(ok)";
        // orders' key is relied on through the head's closure only: trusted, no key stage.
        FlinkJobLayout trusted = layout(q3, 2);
        assertThat(trusted.keyOperators()).isEmpty();
        assertThat(trusted.explain())
                .startsWith(
                        "Flink job:\n  ingest Q (validate, route, epochs): parallelism 2, one per input, in its chain:"
                                + " forward from a source at the same parallelism, else rebalance\n")
                .contains("  results over Q(ok,od,sp) (drop ck): parallelism 2, forward from the sink\n")
                .endsWith(String.join(
                        "\n",
                        "  exchanges per row:",
                        "    customer(ck): 1 exchange (sink)",
                        "    orders(ok,ck,od,sp): 1 exchange (sink)",
                        "    lineitem(ok,ck2): 1 exchange (sink)",
                        ""));
        FlinkJobLayout l = FlinkJobLayout.of(
                Planner.plan(QueryParser.parse(q3), NaturalSemiring.INSTANCE).withKeyChecks(true), 2);
        assertThat(l.explain())
                .startsWith(String.join(
                        "\n",
                        "Flink job:",
                        "  key route Q (validate, send rows to their key stages): parallelism 2, forward from a source at"
                                + " the same parallelism, else rebalance",
                        "  key stage orders(ok) (check the key): parallelism 2, hash(ok)",
                        "  ingest Q (validate, route, epochs): parallelism 2, forward from the key route and the key"
                                + " stages (one exchange, not chained: it takes several inputs)",
                        ""))
                .contains("  results over Q(ok,od,sp) (drop ck): parallelism 2, forward from the sink\n")
                .contains("    orders(ok,ck,od,sp): 3 exchanges (key stage orders(ok), ingest, sink)\n");
        FlinkJobLayout q7 = layout(
                "Q(n1,n2) :- supplier(sk,k1), customer(ck,k2), lineitem(ok,sk), orders(ok,ck), nation(k1,n1),"
                        + " nation(k2,n2) KEY supplier(sk), customer(ck), orders(ok), nation(#0)",
                2);
        assertThat(q7.keyOperators())
                .extracting(FlinkJobLayout.Operator::name)
                .contains(
                        "key stage nation(k1) (check the key, keep the absorbed rows; look up n1 and the payload for"
                                + " lineitem(ok,sk))",
                        "key stage nation(k1) copy 1 (the rows of nation(k1); look up n2 and the payload for"
                                + " lineitem(ok,sk))");
        assertThat(q7.exchangesPerRow())
                .as("nation absorbed into lineitem twice")
                .containsExactly(
                        "supplier(sk,k1): 1 exchange (absorbed: kept at its key stage) (key stage supplier(sk))",
                        "customer(ck,k2): 1 exchange (absorbed: kept at its key stage) (key stage customer(ck))",
                        "lineitem(ok,sk): 7 exchanges (key stage supplier(sk), key stage orders(ok), key stage customer(ck),"
                                + " key stage nation(k1), key stage nation(k1) copy 1, ingest, sink)",
                        "orders(ok,ck): 1 exchange (absorbed: kept at its key stage) (key stage orders(ok))",
                        "nation(k1,n1): 2 exchanges (absorbed: kept at its key stage) (key stage nation(k1), key stage"
                                + " nation(k1) copy 1)",
                        "nation(k2,n2): 2 exchanges (absorbed: kept at its key stage) (key stage nation(k1), key stage"
                                + " nation(k1) copy 1)");
        FlinkJobLayout revenue =
                layout("Q(seg) :- customer(ck,seg), orders(ok,ck), lineitem(ok) KEY customer(ck), orders(ok)", 2);
        assertThat(revenue.keyOperators())
                .extracting(FlinkJobLayout.Operator::name)
                .containsExactly(
                        "key route Q (validate, send rows to their key stages)",
                        "key stage orders(ok) (check the key; look up ck for lineitem(ok))",
                        "key stage customer(ck) (check the key; look up seg for orders(ok,ck), seg for lineitem(ok))");
        assertThat(revenue.projection()).isNull();
        assertThat(revenue.shufflesPerInsert())
                .as("two key stages, then a tree operator")
                .isEqualTo(4);
        assertThat(revenue.exchangesPerRow())
                .as("a lineitem row looks up its order and then the order's customer")
                .containsExactly(
                        "customer(ck,seg): 4 exchanges (key stage customer(ck), ingest, tree 0, sink)",
                        "orders(ok,ck): 5 exchanges (key stage orders(ok), key stage customer(ck), ingest, tree 0,"
                                + " sink)",
                        "lineitem(ok): 5 exchanges (key stage orders(ok), key stage customer(ck), ingest, tree 0,"
                                + " sink)");
        assertThat(revenue.plan().query().head()).containsExactly("seg");
        assertThat(revenue.maintained().query())
                .hasToString("Q(seg) :- customer(ck,seg), orders(ok,ck,seg), lineitem(ok,ck,seg)");
    }

    @Test
    void relationRatesSizeTheCellsForTheFastRelations() {
        MaintenancePlan plan = Planner.plan(
                QueryParser.parse("Revenue(O,C) :- Customer(C,N,'BUILDING'), Orders(O,C,D), Lineitem(O,L)"),
                NaturalSemiring.INSTANCE);
        Map<String, Double> sizes = new LinkedHashMap<>();
        sizes.put("Customer", 150_000.0);
        sizes.put("Orders", 1_500_000.0);
        sizes.put("Lineitem", 6_001_215.0);
        FlinkJobLayout l = FlinkJobLayout.of(plan, 4, new RelationRates(sizes));
        assertThat(l.shares().describe()).isEqualTo("O=4");
        assertThat(l.rates().rates()).isEqualTo(sizes);
        assertThat(l.sink().input())
                .startsWith("shares O=4 (4 cells; replication: V[C] 4, V[O,C] 1, V[O] 1; shares for the relation"
                        + " rates Customer=150000 Orders=1500000 Lineitem=6001215: a cell expects 26.5% of the"
                        + " updates);");
        assertThat(FlinkJobLayout.of(plan, 4).sink().input())
                .as("without rates: equally large root views")
                .startsWith("shares O=2 C=2 (4 cells; replication: V[C] 2, V[O,C] 1, V[O] 2);");
        assertThatThrownBy(() -> FlinkJobLayout.of(plan, 4, new RelationRates(Map.of("Customer", 1.0))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("missing: Orders, Lineitem");
        assertThat(FlinkJobLayout.of(
                                Planner.plan(QueryParser.parse("Q(A,C) :- R(A,B), S(A,C)"), NaturalSemiring.INSTANCE),
                                4,
                                new RelationRates(Map.of("R", 1.0, "S", 9.0)))
                        .sink()
                        .input())
                .startsWith("hash(A) (relation rates not needed: every part has A);");
    }

    @Test
    void relationRatesWeighTheFallbacksAtoms() {
        // The fallback's parts are its atoms: a fast R(A,B) pulls the cells onto A and B.
        MaintenancePlan plan = Planner.plan(
                QueryParser.parse("Q(A,B,C) :- R(A,B), S(B,C), T(A,C)"),
                NaturalSemiring.INSTANCE,
                Planner.Strategy.FALLBACK);
        FlinkJobLayout l = FlinkJobLayout.of(plan, 4, new RelationRates(Map.of("R", 1000.0, "S", 1.0, "T", 1.0)));
        assertThat(l.shares().replication(java.util.List.of("A", "B"))).isEqualTo(1);
        assertThat(l.sink().input()).contains("shares for the relation rates");
    }

    @Test
    void anAggregateKeysItsTreeByTheTopVariableAndHasOneSinkCell() {
        FlinkJobLayout l = layout("Q() :- R(A,B), S(B)", 4);
        assertThat(l.trees()).extracting(FlinkJobLayout.Operator::input).containsExactly("hash(B)");
        assertThat(l.sink().parallelism()).isEqualTo(1);
        assertThat(l.sink().input()).contains("one cell: the query has no free variables");
    }

    @Test
    void theFallbackIsPartitionedToo() {
        FlinkJobLayout path = layout("Q(A,C) :- R(A,B), S(B,C)", 4);
        assertThat(path.trees()).isEmpty();
        assertThat(path.sink().name()).isEqualTo("delta joins over natural (fallback)");
        assertThat(path.sink().input()).startsWith("shares A=2 C=2 (4 cells; replication: R(A,B) 2, S(B,C) 2)");
        assertThat(layout("Q(A,B,C) :- R(A,B), S(B,C), T(A,C), U(A)", 2).sink().input())
                .startsWith("shares");
        assertThat(layout("Q(B) :- R(A,B), S(B,C), T(C,A)", 4).sink().input())
                .as("B is in... not every atom")
                .startsWith("shares");
    }

    @Test
    void explainListsEveryOperator() {
        String text = layout("Q(A,C) :- R(A,B), S(A,B,D), T(A,C,E)", 2).explain();
        assertThat(text)
                .startsWith("Flink job:\n")
                .contains(
                        "  tree 0 V[A] (views V[A,B]): parallelism 2, hash(A)\n",
                        "  Boolean join + payload recovery (sink): parallelism 2, hash(A); V[A,C] straight from the ingest (no state"
                                + " below the root); epoch ends: broadcast from the ingest\n");
        assertThatThrownBy(() -> layout("Q(A) :- R(A)", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parallelism must be at least 1");
    }

    /**
     * With windows, the sink is keyed by the window first and by another variable of every part, so that
     * a window's state goes whole and its groups still spread over the subtasks.
     */
    @Test
    void aWindowKeysTheSinkFirst() {
        MaintenancePlan plan = Planner.plan(QueryParser.parse("Q(A,W) :- bid(A,T,W,E)"), NaturalSemiring.INSTANCE);
        Windows windows =
                Windows.NONE.with(WindowAssignment.of("bid", 1, WindowSpec.tumble(java.time.Duration.ofSeconds(10))));
        FlinkJobLayout plain = FlinkJobLayout.of(plan, 4);
        assertThat(plain.sinkKey()).containsExactly("A");
        assertThat(plain.windowVariable()).isNull();
        FlinkJobLayout windowed = plain.withWindows(windows);
        assertThat(windowed.windowVariable()).isEqualTo("W");
        assertThat(windowed.sinkKey()).containsExactly("W", "A");
        assertThat(windowed.sink().input()).startsWith("hash(W,A)");
        assertThat(windowed.withWindows(windows)).isSameAs(windowed);
    }
}
