package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.PayloadOverflowException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The view trees below the border: the root deltas an insert yields, handed over at once, and the
 * rollback of an insert whose view update or root deltas fail.
 */
class ViewForestTest {
    private static final NaturalSemiring N = NaturalSemiring.INSTANCE;

    private final List<String> deltas = new ArrayList<>();
    private boolean refuse;

    private ViewForest<Long> forest(String query) {
        ViewTreePlan plan = (ViewTreePlan) Planner.plan(QueryParser.parse(query), N);
        return new ViewForest<>(
                plan,
                N,
                new CompiledPlan(plan),
                (count, trees, keys, ds) -> {
                    if (refuse) {
                        throw new ArithmeticException("refused");
                    }
                    List<String> insert = new ArrayList<>();
                    for (int i = 0; i < count; i++) {
                        insert.add(trees[i] + ":" + keys[i] + "+" + ds[i]);
                    }
                    deltas.add(String.join(" ", insert));
                },
                MemoryMaps.PLAIN);
    }

    @Test
    void anInsertHandsOverTheRootDeltasOfEveryAtomItMatchesAtOnce() {
        // A self-join: one insert into R is a delta of both atoms; V0(A) sums R over B.
        ViewForest<Long> f = forest("Q(A,C) :- R(A,B), R(C,C)");
        f.insert("R", Tuple.of(1L, 1L), 2L);
        f.insert("R", Tuple.of(1L, 2L), 3L);
        assertThat(deltas).containsExactly("0:(1)+2 1:(1)+2", "0:(1)+3");
        assertThat(f.insertCount()).isEqualTo(2);
    }

    @Test
    void anInsertWhoseDeltasAreRefusedOrOverflowIsRolledBackAndNotCounted() {
        // V[A,B] joins R and T on (A,B); the root V0(A) sums it over B.
        ViewForest<Long> f = forest("Q(A) :- R(A,B), T(A,B)");
        f.insert("R", Tuple.of(1L, 1L), 2L);
        f.insert("R", Tuple.of(1L, 1L), 0L);
        assertThat(f.insertCount()).as("a no-op is counted").isEqualTo(2);
        assertThat(deltas).as("R alone joins nothing").isEmpty();
        f.insert("T", Tuple.of(1L, 1L), 10L);
        assertThat(deltas).containsExactly("0:(1)+20");
        refuse = true;
        assertThatThrownBy(() -> f.insert("R", Tuple.of(1L, 1L), 5L)).isInstanceOf(ArithmeticException.class);
        refuse = false;
        assertThatThrownBy(() -> f.insert("R", Tuple.of(1L, 1L), Long.MAX_VALUE))
                .isInstanceOf(PayloadOverflowException.class);
        assertThatThrownBy(() -> f.insert("U", Tuple.of(1L), 1L)).isInstanceOf(IllegalArgumentException.class);
        assertThat(f.insertCount())
                .as("refused, rolled-back and rejected inserts are not counted")
                .isEqualTo(3);
        f.insert("T", Tuple.of(1L, 1L), 1L);
        assertThat(deltas)
                .as("R(1,1) is still 2: the refused 5 was rolled back")
                .containsExactly("0:(1)+20", "0:(1)+2");
    }
}
