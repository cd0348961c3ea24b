package io.flinkivm.core.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.BooleanSemiring;
import io.flinkivm.core.semiring.MinPlusSemiring;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Polynomial;
import io.flinkivm.core.semiring.ProvenanceSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.FourBitSemiring;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hand-computed results; each comment shows the sum of products. */
class NaiveEvaluatorTest {

    private static <T> Map<Tuple, T> evaluate(String query, KDatabase<T> db) {
        return NaiveEvaluator.evaluate(QueryParser.parse(query), db.semiring(), db.relations());
    }

    private static KDatabase<Long> natural() {
        return new KDatabase<>(NaturalSemiring.INSTANCE);
    }

    /** The database of Ex. 10 used by several tests here and in EngineTest. */
    static KDatabase<Long> example10Database() {
        KDatabase<Long> db = natural();
        db.insert("R1", Tuple.of(1L, 1L, 1L, 1L), 2L);
        db.insert("R1", Tuple.of(1L, 1L, 1L, 2L), 1L);
        db.insert("R1", Tuple.of(1L, 2L, 1L, 1L), 1L);
        db.insert("R1", Tuple.of(2L, 1L, 1L, 1L), 1L);
        db.insert("R2", Tuple.of(1L, 1L, 1L, 1L), 3L);
        db.insert("R2", Tuple.of(1L, 2L, 1L, 1L), 1L);
        db.insert("R3", Tuple.of(1L, 1L, 1L), 1L);
        db.insert("R3", Tuple.of(1L, 1L, 2L), 1L);
        db.insert("R3", Tuple.of(1L, 2L, 1L), 2L);
        db.insert("R4", Tuple.of(1L), 1L);
        db.insert("R4", Tuple.of(2L), 4L);
        db.insert("R5", Tuple.of(1L, 1L, 1L), 1L);
        db.insert("R5", Tuple.of(1L, 1L, 2L), 2L);
        db.insert("R5", Tuple.of(1L, 2L, 1L), 1L);
        db.insert("R5", Tuple.of(2L, 1L, 1L), 5L);
        return db;
    }

    @Test
    void example10OverNaturalNumbers() {
        // Q1(A) = Σ R1·R2·R3: A=1: B=1,D=1: (2+1)·3·(1+1) = 18; B=2,D=1: 1·1·2 = 2; so 20. A=2: no R2, 0.
        // Q2(A,C) = Σ_H R5: (1,1) = 3, (1,2) = 1, (2,1) = 5. Q3(C) = R4: 1 → 1, 2 → 4.
        // Q(1,1) = 20·3·1 = 60, Q(1,2) = 20·1·4 = 80, Q(2,1) = 0·5·1 = 0.
        Map<Tuple, Long> q =
                evaluate("Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)", example10Database());
        assertThat(q).containsOnly(entry(Tuple.of(1L, 1L), 60L), entry(Tuple.of(1L, 2L), 80L));
    }

    @Test
    void selfJoinReadsTheSameRelationInEveryAtom() {
        KDatabase<Long> db = natural();
        db.insert("E", Tuple.of(1L, 2L), 2L);
        db.insert("E", Tuple.of(2L, 1L), 3L);
        db.insert("E", Tuple.of(1L, 1L), 5L);
        db.insert("E", Tuple.of(2L, 3L), 1L);
        // E(1,2)·E(2,1) = 6, E(2,1)·E(1,2) = 6, E(1,1)·E(1,1) = 25; E(3,2) is absent.
        assertThat(evaluate("Q(A,B) :- E(A,B), E(B,A)", db))
                .containsOnly(entry(Tuple.of(1L, 2L), 6L), entry(Tuple.of(2L, 1L), 6L), entry(Tuple.of(1L, 1L), 25L));
        // Paths of length two: (1,1) via B=2: 2·3 and via B=1: 5·5; (1,2) via B=1: 5·2; ...
        assertThat(evaluate("Q(A,C) :- E(A,B), E(B,C)", db))
                .containsOnly(
                        entry(Tuple.of(1L, 1L), 31L),
                        entry(Tuple.of(1L, 2L), 10L),
                        entry(Tuple.of(1L, 3L), 2L),
                        entry(Tuple.of(2L, 1L), 15L),
                        entry(Tuple.of(2L, 2L), 6L));
    }

    @Test
    void constantsSelectByTextAndRepeatedVariablesByEquality() {
        KDatabase<Long> db = natural();
        db.insert("R", Tuple.of("a", "x"), 2L);
        db.insert("R", Tuple.of("a", "y"), 7L);
        db.insert("R", Tuple.of("b", "x"), 1L);
        db.insert("S", Tuple.of("a", 2L), 3L);
        db.insert("S", Tuple.of("a", 3L), 11L);
        db.insert("S", Tuple.of("c", 2L), 4L);
        // Q(a) = R(a,x)·S(a,2) = 6; S(b,2) is absent; the numeric constant 2 matches the Long 2.
        assertThat(evaluate("Q(A) :- R(A,'x'), S(A,2)", db)).containsOnly(entry(Tuple.of("a"), 6L));

        KDatabase<Long> t = natural();
        t.insert("T", Tuple.of(1L, 1L, 1L), 2L);
        t.insert("T", Tuple.of(1L, 1L, 2L), 3L);
        t.insert("T", Tuple.of(1L, 2L, 2L), 5L);
        t.insert("T", Tuple.of(2L, 2L, 0L), 7L);
        // T(A,A,B): (1,1,1) and (1,1,2) for A=1, (2,2,0) for A=2.
        assertThat(evaluate("Q(A) :- T(A,A,B)", t)).containsOnly(entry(Tuple.of(1L), 5L), entry(Tuple.of(2L), 7L));
        assertThat(evaluate("Q(A) :- T(A,A,A)", t)).containsOnly(entry(Tuple.of(1L), 2L));
    }

    @Test
    void aggregateWithoutFreeVariablesHasOneNullaryTupleOrNone() {
        KDatabase<Long> db = natural();
        db.insert("R", Tuple.of(1L, 1L), 2L);
        db.insert("R", Tuple.of(2L, 1L), 3L);
        db.insert("R", Tuple.of(1L, 2L), 4L);
        assertThat(evaluate("Q() :- R(A,B), S(B)", db)).isEmpty();
        db.insert("S", Tuple.of(1L), 5L);
        db.insert("S", Tuple.of(3L), 7L);
        // (R(1,1) + R(2,1))·S(1) = 25.
        assertThat(evaluate("Q() :- R(A,B), S(B)", db)).containsOnly(entry(Tuple.EMPTY, 25L));
    }

    @Test
    void disconnectedQueryIsACrossProduct() {
        KDatabase<Long> db = natural();
        db.insert("R", Tuple.of(1L), 2L);
        db.insert("R", Tuple.of(2L), 3L);
        db.insert("S", Tuple.of("x", 0L), 5L);
        db.insert("S", Tuple.of("x", 1L), 1L);
        assertThat(evaluate("Q(A,B) :- R(A), S(B,C)", db))
                .containsOnly(entry(Tuple.of(1L, "x"), 12L), entry(Tuple.of(2L, "x"), 18L));
        // A nullary root view: Σ_B S(B,C) multiplies every R(A).
        assertThat(evaluate("Q(A) :- R(A), S(B,C)", db))
                .containsOnly(entry(Tuple.of(1L), 12L), entry(Tuple.of(2L), 18L));
    }

    @Test
    void nullaryAtomsAreScalars() {
        KDatabase<Long> db = natural();
        db.insert("R", Tuple.of(1L), 2L);
        assertThat(evaluate("Q(A) :- R(A), F()", db)).isEmpty();
        db.insert("F", Tuple.EMPTY, 3L);
        assertThat(evaluate("Q(A) :- R(A), F(), F()", db)).containsOnly(entry(Tuple.of(1L), 18L));
    }

    @Test
    void otherSemiringsUseTheirOwnPlusAndTimes() {
        KDatabase<Double> tropical = new KDatabase<>(MinPlusSemiring.INSTANCE);
        tropical.insert("R", Tuple.of(1L, 1L), 2.0);
        tropical.insert("R", Tuple.of(1L, 2L), 1.0);
        tropical.insert("S", Tuple.of(1L), 0.5);
        tropical.insert("S", Tuple.of(2L), 3.0);
        // min(2 + 0.5, 1 + 3) = 2.5: the shortest path.
        assertThat(evaluate("Q(A) :- R(A,B), S(B)", tropical)).containsOnly(entry(Tuple.of(1L), 2.5));

        KDatabase<Polynomial> provenance = new KDatabase<>(ProvenanceSemiring.INSTANCE);
        provenance.insert("R", Tuple.of(1L, 1L), Polynomial.variable("r1"));
        provenance.insert("R", Tuple.of(1L, 2L), Polynomial.variable("r2"));
        provenance.insert("S", Tuple.of(1L), Polynomial.variable("s1"));
        provenance.insert("S", Tuple.of(2L), Polynomial.variable("s2"));
        Polynomial expected = Polynomial.variable("r1")
                .times(Polynomial.variable("s1"))
                .plus(Polynomial.variable("r2").times(Polynomial.variable("s2")));
        assertThat(evaluate("Q(A) :- R(A,B), S(B)", provenance)).containsOnly(entry(Tuple.of(1L), expected));

        KDatabase<Boolean> bool = new KDatabase<>(BooleanSemiring.INSTANCE);
        bool.insert("R", Tuple.of(1L, 1L), true);
        bool.insert("S", Tuple.of(2L), true);
        assertThat(evaluate("Q(A) :- R(A,B), S(B)", bool)).isEmpty();
    }

    @Test
    void productsThatVanishInANonPositiveSemiringAreDropped() {
        KDatabase<Integer> db = new KDatabase<>(FourBitSemiring.INSTANCE);
        db.insert("R", Tuple.of(1L), 0b0001);
        db.insert("R", Tuple.of(2L), 0b0011);
        db.insert("S", Tuple.of(1L), 0b0010);
        db.insert("S", Tuple.of(2L), 0b0110);
        // R(1)·S(1) = {0} ∩ {1} = {}; R(2)·S(2) = {0,1} ∩ {1,2} = {1}.
        assertThat(evaluate("Q(A) :- R(A), S(A)", db)).containsOnly(entry(Tuple.of(2L), 0b0010));
    }

    @Test
    void relationsMissingFromTheDatabaseAreEmptyAndWrongAritiesAreRejected() {
        ConjunctiveQuery q = QueryParser.parse("Q(A) :- R(A,B)");
        assertThat(NaiveEvaluator.evaluate(q, NaturalSemiring.INSTANCE, Map.of()))
                .isEmpty();
        Semiring<Long> k = NaturalSemiring.INSTANCE;
        Map<String, Map<Tuple, Long>> bad = Map.of("R", Map.of(Tuple.of(1L), 1L));
        assertThatThrownBy(() -> NaiveEvaluator.evaluate(q, k, bad))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("relation R holds tuple (1) of arity 1, but atom R(A,B) has arity 2");
    }
}
