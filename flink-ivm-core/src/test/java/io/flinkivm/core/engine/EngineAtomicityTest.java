package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.PayloadOverflowException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** An insert that overflows leaves no trace: every engine rolls it back completely. */
class EngineAtomicityTest {
    private static final long BIG = Long.MAX_VALUE / 2;

    private static Map<Tuple, Long> result(IvmEngine<Long> engine) {
        Map<Tuple, Long> out = new HashMap<>();
        for (Iterator<ResultTuple<Long>> it = engine.enumerate(); it.hasNext(); ) {
            ResultTuple<Long> r = it.next();
            out.put(r.tuple(), r.payload());
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(
            value = Planner.Strategy.class,
            names = {"AUTO", "FALLBACK"})
    void overflowingInsertIsRolledBack(Planner.Strategy strategy) {
        // A self-join: R's first atom is applied, then its second atom's delta overflows.
        IvmEngine<Long> engine = Engines.create(
                Planner.plan(QueryParser.parse("Q(A) :- R(A,C), R(A,B), S(A,B)"), NaturalSemiring.INSTANCE, strategy),
                NaturalSemiring.INSTANCE);
        engine.insert("S", Tuple.of("a", "b"), 3L);
        engine.insert("R", Tuple.of("a", "b"), 1L);
        assertThat(result(engine)).containsExactly(Map.entry(Tuple.of("a"), 3L));
        assertThatThrownBy(() -> engine.insert("R", Tuple.of("a", "b"), BIG))
                .isInstanceOf(PayloadOverflowException.class);
        assertThat(result(engine)).containsExactly(Map.entry(Tuple.of("a"), 3L));
        assertThat(engine.lookup(Tuple.of("a"))).isEqualTo(3L);
        // The engine goes on as if the failed insert never happened.
        engine.insert("R", Tuple.of("a", "c"), 1L);
        assertThat(result(engine)).containsExactly(Map.entry(Tuple.of("a"), 6L));
    }

    @ParameterizedTest
    @EnumSource(
            value = Planner.Strategy.class,
            names = {"AUTO", "FALLBACK"})
    void overflowInTheJoinViewLeavesItUnchanged(Planner.Strategy strategy) {
        IvmEngine<Long> engine = Engines.create(
                Planner.plan(QueryParser.parse("Q() :- R(A), S(A)"), NaturalSemiring.INSTANCE, strategy),
                NaturalSemiring.INSTANCE);
        engine.insert("R", Tuple.of(1L), BIG);
        assertThatThrownBy(() -> engine.insert("S", Tuple.of(1L), 3L)).isInstanceOf(PayloadOverflowException.class);
        assertThat(result(engine)).isEmpty();
        engine.insert("S", Tuple.of(1L), 1L);
        assertThat(result(engine)).containsExactly(Map.entry(Tuple.EMPTY, BIG));
    }
}
