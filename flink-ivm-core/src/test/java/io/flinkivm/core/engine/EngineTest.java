package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.Planner.Strategy;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.BooleanSemiring;
import io.flinkivm.core.semiring.MinPlusSemiring;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.PayloadOverflowException;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Worked examples for both in-memory engines: every test runs with the plan {@link Strategy#AUTO}
 * picks (p-hierarchical for these queries, unless said otherwise) and with the forced fallback.
 */
class EngineTest {

    private static final NaturalSemiring N = NaturalSemiring.INSTANCE;

    private static <T> IvmEngine<T> engine(String query, Semiring<T> k, Strategy strategy) {
        ConjunctiveQuery q = QueryParser.parse(query);
        MaintenancePlan plan = Planner.plan(q, k, strategy);
        return Engines.create(plan, k);
    }

    /** The engine for a query the AUTO plan must handle with the p-hierarchical plan. */
    private static <T> IvmEngine<T> pHierarchical(String query, Semiring<T> k, Strategy strategy) {
        IvmEngine<T> e = engine(query, k, strategy);
        assertThat(e).isInstanceOf(strategy == Strategy.FALLBACK ? DeltaJoinEngine.class : PHierarchicalEngine.class);
        return e;
    }

    /**
     * The result as a map, checking that no tuple is enumerated twice, no payload is zero, and the
     * cursor reads the same tuples and payloads as the iterator, in the same order.
     */
    private static <T> Map<Tuple, T> result(IvmEngine<T> e, Semiring<T> k) {
        Map<Tuple, T> out = new HashMap<>();
        List<ResultTuple<T>> read = new ArrayList<>();
        for (ResultCursor<T> c = e.cursor(); c.next(); ) {
            read.add(new ResultTuple<>(c.tuple(), c.payload()));
        }
        List<ResultTuple<T>> iterated = new ArrayList<>();
        for (Iterator<ResultTuple<T>> it = e.enumerate(); it.hasNext(); ) {
            ResultTuple<T> t = it.next();
            iterated.add(t);
            assertThat(out.put(t.tuple(), t.payload()))
                    .as("duplicate %s", t.tuple())
                    .isNull();
            assertThat(k.isZero(t.payload()))
                    .as("zero payload of %s", t.tuple())
                    .isFalse();
            assertThat(e.lookup(t.tuple())).isEqualTo(t.payload());
        }
        assertThat(read).as("the cursor's rows").isEqualTo(iterated);
        return out;
    }

    private static void insert(IvmEngine<Long> e, String relation, long payload, Object... values) {
        e.insert(relation, Tuple.of(values), payload);
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "FALLBACK"})
    void example10OverNaturalNumbers(Strategy strategy) {
        IvmEngine<Long> e =
                pHierarchical("Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)", N, strategy);
        insert(e, "R1", 2, 1L, 1L, 1L, 1L);
        insert(e, "R1", 1, 1L, 1L, 1L, 2L);
        insert(e, "R1", 1, 1L, 2L, 1L, 1L);
        insert(e, "R1", 1, 2L, 1L, 1L, 1L);
        insert(e, "R2", 3, 1L, 1L, 1L, 1L);
        insert(e, "R2", 1, 1L, 2L, 1L, 1L);
        insert(e, "R3", 1, 1L, 1L, 1L);
        insert(e, "R3", 1, 1L, 1L, 2L);
        insert(e, "R3", 2, 1L, 2L, 1L);
        insert(e, "R5", 1, 1L, 1L, 1L);
        insert(e, "R5", 2, 1L, 1L, 2L);
        insert(e, "R5", 1, 1L, 2L, 1L);
        insert(e, "R5", 5, 2L, 1L, 1L);
        assertThat(result(e, N)).as("nothing before R4 has a tuple").isEmpty();
        insert(e, "R4", 1, 1L);
        insert(e, "R4", 4, 2L);
        // Q1(A) = Σ R1·R2·R3: A=1: (2+1)·3·(1+1) at B=1 plus 1·1·2 at B=2 = 20; A=2 has no R2 tuple.
        // Q2(A,C) = Σ_H R5: (1,1) = 3, (1,2) = 1, (2,1) = 5. Q3(C) = R4(C).
        // Q(1,1) = 20·3·1 = 60 and Q(1,2) = 20·1·4 = 80; Q(2,1) = 0.
        assertThat(result(e, N)).containsOnly(entry(Tuple.of(1L, 1L), 60L), entry(Tuple.of(1L, 2L), 80L));
        assertThat(e.lookup(Tuple.of(2L, 1L))).isZero();
        assertThat(e.insertCount()).isEqualTo(15);
        // A payload change below the border reaches existing result tuples: R3(1,2,1) += 1 makes Q1(1) = 21.
        insert(e, "R3", 1, 1L, 2L, 1L);
        assertThat(result(e, N)).containsOnly(entry(Tuple.of(1L, 1L), 63L), entry(Tuple.of(1L, 2L), 84L));
        // R2(2,1,1,x) makes A=2 live: Q1(2) = 1·1·0 is still zero without R3(2,..).
        insert(e, "R2", 1, 2L, 1L, 1L, 7L);
        assertThat(e.lookup(Tuple.of(2L, 1L))).isZero();
        insert(e, "R3", 2, 2L, 1L, 9L);
        assertThat(e.lookup(Tuple.of(2L, 1L))).isEqualTo(2L * 5 * 1);
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "FALLBACK"})
    void aCursorReadsEachResultTupleInPlaceAndOnlyThere(Strategy strategy) {
        IvmEngine<Long> e = pHierarchical("Q(A,C) :- R(A,B), S(A,C), T(C)", N, strategy);
        insert(e, "R", 2, 1L, 1L);
        insert(e, "S", 3, 1L, 5L);
        insert(e, "T", 4, 5L);
        ResultCursor<Long> c = e.cursor();
        assertThatThrownBy(c::tuple).isInstanceOf(NoSuchElementException.class);
        assertThat(c.next()).isTrue();
        assertThat(c.tuple()).isEqualTo(Tuple.of(1L, 5L));
        assertThat(c.payload()).as("read twice, the same").isEqualTo(24L).isEqualTo(c.payload());
        assertThat(c.next()).isFalse();
        assertThat(c.next()).as("still at the end").isFalse();
        assertThatThrownBy(c::payload).isInstanceOf(NoSuchElementException.class);
        // Tuples that become live after a cursor was read are in the next one, payload changes too.
        insert(e, "S", 1, 1L, 6L);
        insert(e, "T", 1, 6L);
        insert(e, "R", 1, 1L, 2L);
        assertThat(result(e, N)).containsOnly(entry(Tuple.of(1L, 5L), 36L), entry(Tuple.of(1L, 6L), 3L));
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "FALLBACK"})
    void nullaryRootViewMultipliesEveryResultTuple(Strategy strategy) {
        IvmEngine<Long> e = pHierarchical("Q(A) :- R(A), S(B)", N, strategy);
        insert(e, "R", 2, 1L);
        insert(e, "R", 3, 2L);
        assertThat(result(e, N)).isEmpty();
        insert(e, "S", 4, 7L);
        assertThat(result(e, N)).containsOnly(entry(Tuple.of(1L), 8L), entry(Tuple.of(2L), 12L));
        insert(e, "S", 1, 8L);
        assertThat(result(e, N)).containsOnly(entry(Tuple.of(1L), 10L), entry(Tuple.of(2L), 15L));
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "FALLBACK"})
    void queryWithoutFreeVariablesIsOneNullaryTuple(Strategy strategy) {
        IvmEngine<Long> e = pHierarchical("Q() :- R(A,B), S(B)", N, strategy);
        insert(e, "R", 2, 1L, 1L);
        insert(e, "R", 3, 2L, 1L);
        insert(e, "R", 4, 1L, 2L);
        assertThat(result(e, N)).isEmpty();
        assertThat(e.lookup(Tuple.EMPTY)).isZero();
        insert(e, "S", 5, 1L);
        insert(e, "S", 7, 3L);
        // (R(1,1) + R(2,1)) · S(1) = 25.
        assertThat(result(e, N)).containsOnly(entry(Tuple.EMPTY, 25L));
        insert(e, "S", 1, 2L);
        assertThat(e.lookup(Tuple.EMPTY)).isEqualTo(29L);
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "FALLBACK"})
    void disconnectedQueryIsACrossProduct(Strategy strategy) {
        IvmEngine<Long> e = pHierarchical("Q(A,C) :- R(A,B), S(C,D)", N, strategy);
        insert(e, "R", 2, 1L, 10L);
        insert(e, "R", 1, 1L, 11L);
        insert(e, "R", 1, 2L, 10L);
        insert(e, "S", 4, 5L, 20L);
        insert(e, "S", 1, 6L, 20L);
        insert(e, "S", 1, 6L, 21L);
        // Σ_B R: 1 → 3, 2 → 1; Σ_D S: 5 → 4, 6 → 2.
        assertThat(result(e, N))
                .containsOnly(
                        entry(Tuple.of(1L, 5L), 12L),
                        entry(Tuple.of(1L, 6L), 6L),
                        entry(Tuple.of(2L, 5L), 4L),
                        entry(Tuple.of(2L, 6L), 2L));
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "FALLBACK"})
    void selfJoinAppliesOneInsertPerAtom(Strategy strategy) {
        IvmEngine<Long> e = pHierarchical("Q(A,B) :- E(A,B), E(B,A)", N, strategy);
        insert(e, "E", 2, 1L, 2L);
        insert(e, "E", 3, 2L, 1L);
        insert(e, "E", 5, 1L, 1L);
        insert(e, "E", 1, 2L, 3L);
        // E(1,2)·E(2,1) = 6 both ways; the loop E(1,1) meets itself: 5·5 = 25; E(3,2) is absent.
        assertThat(result(e, N))
                .containsOnly(entry(Tuple.of(1L, 2L), 6L), entry(Tuple.of(2L, 1L), 6L), entry(Tuple.of(1L, 1L), 25L));
        // Adding 1 to the loop: (5+1)·(5+1) = 36, not 25 + 1·5 or 25 + 2·5.
        insert(e, "E", 1, 1L, 1L);
        assertThat(e.lookup(Tuple.of(1L, 1L))).isEqualTo(36L);
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "FALLBACK"})
    void selfJoinWithABoundVariable(Strategy strategy) {
        IvmEngine<Long> e = pHierarchical("Q(A) :- E(A,B), E(B,A)", N, strategy);
        insert(e, "E", 2, 1L, 2L);
        insert(e, "E", 3, 2L, 1L);
        insert(e, "E", 5, 1L, 1L);
        insert(e, "E", 1, 2L, 3L);
        // Q(1) = E(1,2)·E(2,1) + E(1,1)·E(1,1) = 31; Q(2) = E(2,1)·E(1,2) = 6.
        assertThat(result(e, N)).containsOnly(entry(Tuple.of(1L), 31L), entry(Tuple.of(2L), 6L));
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "FALLBACK"})
    void pathSelfJoinIsNotPHierarchicalAndTakesTheFallback(Strategy strategy) {
        IvmEngine<Long> e = engine("Q(A,C) :- E(A,B), E(B,C)", N, strategy);
        assertThat(e).isInstanceOf(DeltaJoinEngine.class);
        insert(e, "E", 2, 1L, 2L);
        insert(e, "E", 3, 2L, 1L);
        insert(e, "E", 5, 1L, 1L);
        insert(e, "E", 1, 2L, 3L);
        assertThat(result(e, N))
                .containsOnly(
                        entry(Tuple.of(1L, 1L), 31L),
                        entry(Tuple.of(1L, 2L), 10L),
                        entry(Tuple.of(1L, 3L), 2L),
                        entry(Tuple.of(2L, 1L), 15L),
                        entry(Tuple.of(2L, 2L), 6L));
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "FALLBACK"})
    void selectionsFilterEachAtomOfASelfJoin(Strategy strategy) {
        IvmEngine<Long> e = pHierarchical("Q(A) :- R(A,'x'), R(A,A), S(A,2)", N, strategy);
        e.insert("R", Tuple.of("a", "x"), 2L);
        e.insert("R", Tuple.of("a", "a"), 3L);
        e.insert("R", Tuple.of("b", "x"), 5L);
        e.insert("R", Tuple.of("b", "b"), 7L);
        e.insert("S", Tuple.of("a", 2L), 11L);
        e.insert("S", Tuple.of("b", 3L), 13L);
        assertThat(result(e, N)).containsOnly(entry(Tuple.of("a"), 2L * 3 * 11));
        e.insert("S", Tuple.of("b", "2"), 1L);
        assertThat(result(e, N))
                .as("the constant 2 matches the text \"2\" too")
                .containsOnly(entry(Tuple.of("a"), 66L), entry(Tuple.of("b"), 35L));
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "FALLBACK"})
    void payloadZeroIsANoOp(Strategy strategy) {
        IvmEngine<Long> e = pHierarchical("Q(A) :- R(A,B), S(A)", N, strategy);
        insert(e, "R", 0, 1L, 1L);
        insert(e, "S", 3, 1L);
        assertThat(result(e, N)).isEmpty();
        insert(e, "R", 2, 1L, 1L);
        insert(e, "S", 0, 1L);
        insert(e, "R", 0, 1L, 2L);
        assertThat(result(e, N)).containsOnly(entry(Tuple.of(1L), 6L));
        assertThat(e.insertCount()).as("no-ops are counted").isEqualTo(5);

        IvmEngine<Double> tropical = pHierarchical("Q(A) :- R(A,B), S(A)", MinPlusSemiring.INSTANCE, strategy);
        tropical.insert("R", Tuple.of(1L, 1L), Double.POSITIVE_INFINITY);
        tropical.insert("S", Tuple.of(1L), 1.0);
        assertThat(result(tropical, MinPlusSemiring.INSTANCE))
                .as("+∞ is min-plus zero")
                .isEmpty();

        IvmEngine<Boolean> bool = pHierarchical("Q(A) :- R(A)", BooleanSemiring.INSTANCE, strategy);
        bool.insert("R", Tuple.of(1L), false);
        assertThat(result(bool, BooleanSemiring.INSTANCE)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "FALLBACK"})
    void insertingAPresentTupleAddsPayloads(Strategy strategy) {
        IvmEngine<Long> e = pHierarchical("Q(A) :- R(A,B), S(A)", N, strategy);
        insert(e, "S", 1, 1L);
        insert(e, "R", 2, 1L, 1L);
        insert(e, "R", 3, 1L, 1L);
        assertThat(e.lookup(Tuple.of(1L))).isEqualTo(5L);
        insert(e, "S", 1, 1L);
        assertThat(result(e, N)).containsOnly(entry(Tuple.of(1L), 10L));

        IvmEngine<Double> tropical = pHierarchical("Q(A) :- R(A,B), S(A)", MinPlusSemiring.INSTANCE, strategy);
        tropical.insert("S", Tuple.of(1L), 0.5);
        tropical.insert("R", Tuple.of(1L, 1L), 3.0);
        tropical.insert("R", Tuple.of(1L, 1L), 2.0);
        tropical.insert("R", Tuple.of(1L, 1L), 4.0);
        assertThat(tropical.lookup(Tuple.of(1L))).isEqualTo(2.5);
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "FALLBACK"})
    void naturalOverflowRaisesPayloadOverflowException(Strategy strategy) {
        IvmEngine<Long> sum = pHierarchical("Q(A) :- R(A,B)", N, strategy);
        insert(sum, "R", Long.MAX_VALUE, 1L, 1L);
        assertThatThrownBy(() -> insert(sum, "R", 1, 1L, 2L))
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("natural-number overflow");

        // The product of two root views overflows: on insert (fallback) or while enumerating (p-hierarchical).
        IvmEngine<Long> product = pHierarchical("Q(A) :- R(A), S(A)", N, strategy);
        assertThatThrownBy(() -> {
                    insert(product, "R", 1L << 62, 1L);
                    insert(product, "S", 4, 1L);
                    result(product, N);
                })
                .isInstanceOf(PayloadOverflowException.class)
                .hasMessageContaining("exceeds 64 bits");
    }

    @ParameterizedTest
    @EnumSource(names = {"AUTO", "FALLBACK"})
    void unknownRelationAndWrongArityAreRejected(Strategy strategy) {
        IvmEngine<Long> e = pHierarchical("Q(A) :- R(A,B), S(A)", N, strategy);
        assertThatThrownBy(() -> insert(e, "T", 1, 1L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown relation 'T'")
                .hasMessageContaining("the query uses R, S");
        assertThatThrownBy(() -> insert(e, "T", 0, 1L))
                .as("a zero payload is checked too")
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown relation 'T'");
        assertThatThrownBy(() -> insert(e, "R", 1, 1L, 2L, 3L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("relation R has arity 2, got 3 values");
        assertThatThrownBy(() -> insert(e, "S", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("relation S has arity 1, got 0 values");
        assertThat(e.insertCount()).as("rejected inserts are not counted").isZero();
        assertThat(result(e, N)).isEmpty();
    }

    @Test
    void planForAnotherSemiringIsRejected() {
        MaintenancePlan plan = Planner.plan(QueryParser.parse("Q(A) :- R(A)"), N);
        assertThat(plan.kind()).isEqualTo(PlanKind.P_HIERARCHICAL);
        assertThatThrownBy(() -> Engines.create(plan, BooleanSemiring.INSTANCE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("plan was made for semiring natural, not boolean");
    }

    /** Every engine counts its state and its border crossings: new root tuples, none for the fallback. */
    @Test
    void everyEngineReportsStateEntriesAndBorderCrossings() {
        String query = "Q(A) :- R(A,B), S(A)";
        IvmEngine<Long> acyclic = pHierarchical(query, N, Strategy.AUTO);
        IvmEngine<Long> fallback = pHierarchical(query, N, Strategy.FALLBACK);
        IvmEngine<Long> ablation =
                new AblationEngine<>((PHierarchicalPlan) Planner.plan(QueryParser.parse(query), N), N);
        IvmEngine<Long> cyclic = engine("Q(A,B,C) :- R(A,B), S(B,C), T(A,C)", N, Strategy.AUTO);
        assertThat(cyclic).isInstanceOf(PHierarchicalEngine.class);
        for (IvmEngine<Long> e : List.of(acyclic, fallback, ablation)) {
            assertThat(e.stateEntries()).isZero();
            insert(e, "R", 1, 1L, 2L);
            insert(e, "R", 1, 1L, 3L);
            insert(e, "S", 1, 1L);
            insert(e, "S", 1, 2L);
            insert(e, "S", 1, 2L);
            assertThat(e.stateEntries()).isPositive();
        }
        // Root tuples V[A](1), S(1), S(2): three crossings, whatever the number of inserts.
        assertThat(acyclic.borderCrossings()).isEqualTo(3);
        assertThat(ablation.borderCrossings()).isEqualTo(3);
        assertThat(fallback.borderCrossings()).isZero();
        insert(cyclic, "R", 1, 1L, 2L);
        insert(cyclic, "S", 1, 2L, 3L);
        insert(cyclic, "T", 1, 1L, 3L);
        insert(cyclic, "R", 1, 1L, 2L);
        assertThat(cyclic.borderCrossings()).isEqualTo(3);
        assertThat(cyclic.stateEntries()).isPositive();
    }
}
