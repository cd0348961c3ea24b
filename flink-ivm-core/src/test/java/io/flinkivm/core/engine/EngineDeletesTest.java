package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.core.semiring.LongComponent;
import io.flinkivm.core.semiring.PayloadOverflowException;
import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.ProductRing;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Worked examples of deletes and updates on every plan kind under deletes (q-hierarchical, fallback). */
class EngineDeletesTest {
    private static final IntegerRing Z = IntegerRing.INSTANCE;
    private static final String QUERY = "Q(A,C) :- R(A,B), S(A,C,D), T(A)";

    private static <T> IvmEngine<T> engine(
            String query, Semiring<T> k, Planner.Strategy strategy, String... changelog) {
        MaintenancePlan plan = Planner.plan(QueryParser.parse(query), k, strategy, Inputs.changelog(changelog));
        return Engines.withChangelog(plan, k);
    }

    private static <T> Map<Tuple, T> result(IvmEngine<T> engine) {
        Map<Tuple, T> out = new HashMap<>();
        for (Iterator<ResultTuple<T>> it = engine.enumerate(); it.hasNext(); ) {
            ResultTuple<T> r = it.next();
            out.put(r.tuple(), r.payload());
        }
        return out;
    }

    private static <T> List<ResultChange<T>> changes(IvmEngine<T> engine) {
        List<ResultChange<T>> out = new ArrayList<>();
        engine.changes(out::add);
        return out;
    }

    @ParameterizedTest
    @EnumSource(
            value = Planner.Strategy.class,
            names = {"AUTO", "FALLBACK"})
    void aRootTupleThatLosesItsLastSupportLeavesAndComesBack(Planner.Strategy strategy) {
        IvmEngine<Long> e = engine(QUERY, Z, strategy, "R", "S", "T");
        e.insert("R", Tuple.of("a", "b1"), 2L);
        e.insert("R", Tuple.of("a", "b2"), 1L);
        e.insert("S", Tuple.of("a", "c", "d"), 5L);
        e.insert("T", Tuple.of("a"), 1L);
        assertThat(result(e)).containsExactly(Map.entry(Tuple.of("a", "c"), 15L));
        assertThat(changes(e)).containsExactly(new ResultChange<>(Tuple.of("a", "c"), 15L, null));
        // V[A](a) = 3 - 2 = 1: the tuple stays, with a smaller payload.
        e.delete("R", Tuple.of("a", "b1"), 2L);
        assertThat(changes(e)).containsExactly(new ResultChange<>(Tuple.of("a", "c"), 5L, 15L));
        // T(a) goes: (a, c) leaves the result, -D with its last payload.
        e.apply(ChangeKind.DELETE, "T", Tuple.of("a"), 1L);
        assertThat(result(e)).isEmpty();
        assertThat(e.lookup(Tuple.of("a", "c"))).isZero();
        assertThat(changes(e)).containsExactly(new ResultChange<>(Tuple.of("a", "c"), null, 5L));
        e.apply(ChangeKind.INSERT, "T", Tuple.of("a"), 3L);
        assertThat(result(e)).containsExactly(Map.entry(Tuple.of("a", "c"), 15L));
        assertThat(changes(e)).containsExactly(new ResultChange<>(Tuple.of("a", "c"), 15L, null));
        // An update moves S's row to another C.
        e.update("S", Tuple.of("a", "c", "d"), 5L, Tuple.of("a", "c2", "d"), 5L);
        assertThat(result(e)).containsExactly(Map.entry(Tuple.of("a", "c2"), 15L));
        assertThat(changes(e))
                .containsExactlyInAnyOrder(
                        new ResultChange<>(Tuple.of("a", "c"), null, 15L),
                        new ResultChange<>(Tuple.of("a", "c2"), 15L, null));
    }

    @ParameterizedTest
    @EnumSource(
            value = Planner.Strategy.class,
            names = {"AUTO", "FALLBACK"})
    void deletingEverythingLeavesNoState(Planner.Strategy strategy) {
        IvmEngine<Long> e = engine(QUERY, Z, strategy, "R", "S", "T");
        for (int i = 0; i < 50; i++) {
            e.insert("R", Tuple.of(i % 7, i), 1L);
            e.insert("S", Tuple.of(i % 7, i % 3, i), 2L);
            e.insert("T", Tuple.of(i % 5), 1L);
        }
        assertThat(e.stateEntries()).isPositive();
        for (int i = 0; i < 50; i++) {
            e.delete("R", Tuple.of(i % 7, i), 1L);
            e.delete("S", Tuple.of(i % 7, i % 3, i), 2L);
            e.delete("T", Tuple.of(i % 5), 1L);
        }
        assertThat(result(e)).isEmpty();
        changes(e);
        assertThat(e.stateEntries()).isZero();
    }

    @ParameterizedTest
    @EnumSource(
            value = Planner.Strategy.class,
            names = {"AUTO", "FALLBACK"})
    void aDeleteOfARowThatIsNotThereIsRejectedAndChangesNothing(Planner.Strategy strategy) {
        IvmEngine<Long> e = engine(QUERY, Z, strategy, "R", "S");
        e.insert("R", Tuple.of("a", "b"), 2L);
        e.insert("S", Tuple.of("a", "c", "d"), 1L);
        e.insert("T", Tuple.of("a"), 1L);
        long entries = e.stateEntries();
        assertThatThrownBy(() -> e.delete("R", Tuple.of("a", "x"), 1L))
                .isInstanceOf(AbsentRowException.class)
                .hasMessage("delete of R(a, x) with payload 1: R holds no such row; the delete is rejected and"
                        + " changes nothing");
        assertThatThrownBy(() -> e.delete("R", Tuple.of("a", "b"), 3L))
                .isInstanceOf(AbsentRowException.class)
                .hasMessage("delete of R(a, b) with payload 3: the row holds 2, a delete takes away part of that at"
                        + " most; the delete is rejected and changes nothing");
        assertThatThrownBy(() -> e.update("R", Tuple.of("a", "b"), -1L, Tuple.of("a", "b2"), 1L))
                .isInstanceOf(AbsentRowException.class);
        assertThatThrownBy(() -> e.delete("T", Tuple.of("a"), 1L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("T is insert-only in this plan; it has deletes in R, S");
        assertThat(e.stateEntries()).isEqualTo(entries);
        assertThat(result(e)).containsExactly(Map.entry(Tuple.of("a", "c"), 2L));
    }

    @ParameterizedTest
    @EnumSource(
            value = Planner.Strategy.class,
            names = {"AUTO", "FALLBACK"})
    void anUpdateWhoseInsertOverflowsKeepsTheOldRow(Planner.Strategy strategy) {
        IvmEngine<Long> e = engine("Q(A) :- R(A,B), S(A)", Z, strategy, "R");
        e.insert("S", Tuple.of("a"), 1L);
        e.insert("R", Tuple.of("a", "b0"), 1L);
        e.insert("R", Tuple.of("a", "b"), 1L);
        // Without R(a, b), V[A](a) = 1, and 1 + MAX_VALUE overflows.
        assertThatThrownBy(() -> e.update("R", Tuple.of("a", "b"), 1L, Tuple.of("a", "c"), Long.MAX_VALUE))
                .isInstanceOf(PayloadOverflowException.class);
        assertThat(result(e)).containsExactly(Map.entry(Tuple.of("a"), 2L));
        e.delete("R", Tuple.of("a", "b"), 1L);
        assertThat(result(e)).containsExactly(Map.entry(Tuple.of("a"), 1L));
    }

    @ParameterizedTest
    @EnumSource(
            value = Planner.Strategy.class,
            names = {"AUTO", "FALLBACK"})
    void theMinOfAGroupFallsBackToTheNextValueWhenItsRowIsDeleted(Planner.Strategy strategy) {
        // SELECT g, SUM(v), MIN(v) FROM r JOIN s USING (g) GROUP BY g, payloads of r's rows.
        ProductRing ring = ProductRing.of(List.of(LongComponent.INTEGER, LongComponent.MIN));
        IvmEngine<Product> e = engine("Q(G) :- R(G,K), S(G)", ring, strategy, "R", "S");
        e.insert("S", Tuple.of("g"), ring.one());
        e.insert("R", Tuple.of("g", 1), ring.payload(1, 7, 7));
        e.insert("R", Tuple.of("g", 2), ring.payload(1, 3, 3));
        e.insert("R", Tuple.of("g", 3), ring.payload(1, 5, 5));
        assertThat(result(e).get(Tuple.of("g")).get(2)).isEqualTo(3);
        e.delete("R", Tuple.of("g", 2), ring.payload(1, 3, 3));
        Product group = result(e).get(Tuple.of("g"));
        assertThat(group.get(2)).isEqualTo(5);
        assertThat(ring.format(group)).isEqualTo("2;12;{5 7}");
        e.delete("R", Tuple.of("g", 3), ring.payload(1, 5, 5));
        assertThat(result(e).get(Tuple.of("g")).get(2)).isEqualTo(7);
        e.delete("R", Tuple.of("g", 1), ring.payload(1, 7, 7));
        assertThat(result(e)).isEmpty();
    }

    /**
     * The q-tree's O(1): deleting and re-inserting the one S(a, ·) that n rows R(a, ·) depend on costs
     * the same number of state operations for n = 10 and n = 10,000 (the insert-only join would make
     * every R(a, ·) dead and live again, one by one).
     */
    @org.junit.jupiter.api.Test
    void aDeleteThatEmptiesAKeyCostsTheSameWhateverDependsOnIt() {
        long small = toggleCost(10);
        long large = toggleCost(10_000);
        assertThat(large).isEqualTo(small);
    }

    private static long toggleCost(int n) {
        MaintenancePlan plan = Planner.plan(
                QueryParser.parse("Q(A,B,C) :- R(A,B), S(A,C)"), Z, Planner.Strategy.AUTO, Inputs.changelog("S"));
        StateCounts counts = new StateCounts();
        IvmEngine<Long> e = Engines.create(plan, Z, counts);
        for (int i = 0; i < n; i++) {
            e.insert("R", Tuple.of("a", i), 1L);
        }
        e.insert("S", Tuple.of("a", "c"), 1L);
        long before = counts.operations();
        for (int round = 0; round < 5; round++) {
            e.delete("S", Tuple.of("a", "c"), 1L);
            e.insert("S", Tuple.of("a", "c"), 1L);
        }
        return counts.operations() - before;
    }

    @ParameterizedTest
    @EnumSource(
            value = Planner.Strategy.class,
            names = {"AUTO", "FALLBACK"})
    void anInsertOnlyPlanRefusesDeletes(Planner.Strategy strategy) {
        IvmEngine<Long> e = Engines.create(Planner.plan(QueryParser.parse(QUERY), Z, strategy), Z);
        e.insert("R", Tuple.of("a", "b"), 1L);
        assertThatThrownBy(() -> e.delete("R", Tuple.of("a", "b"), 1L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("every relation of this")
                .hasMessageContaining("insert-only: plan the query with the relations that receive deletes");
    }
}
