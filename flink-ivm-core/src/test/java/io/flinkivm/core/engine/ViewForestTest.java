package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

/** The shared part of the p-hierarchical engines: payload recovery, counters and the border flag. */
class ViewForestTest {
    private static final NaturalSemiring N = NaturalSemiring.INSTANCE;

    private final List<String> crossings = new ArrayList<>();
    private final List<String> deltas = new ArrayList<>();

    private CompiledPlan compiled;

    private ViewForest<Long> forest(String query) {
        ViewTreePlan plan = (ViewTreePlan) Planner.plan(QueryParser.parse(query), N);
        compiled = new CompiledPlan(plan);
        return new ViewForest<>(plan, N, compiled, (tree, key, delta, old, updated, crosses) -> {
            deltas.add(tree + ":" + key + "+" + delta);
            if (crosses) {
                crossings.add(tree + ":" + key);
            }
        });
    }

    @Test
    void payloadOfIsTheProductOfTheRootPayloads() {
        // Two view trees (a cross product): roots V0(A) = sum over B of R, V1(C) = S.
        ViewForest<Long> f = forest("Q(A,C) :- R(A,B), S(C)");
        assertThat(compiled.treeCount()).isEqualTo(2);
        f.insert("R", Tuple.of(1L, 1L), 2L);
        assertThat(f.payloadOf(Tuple.of(1L, 7L))).as("S(7) is absent").isZero();
        f.insert("S", Tuple.of(7L), 5L);
        f.insert("R", Tuple.of(1L, 2L), 3L);
        assertThat(f.payloadOf(Tuple.of(1L, 7L))).isEqualTo((2L + 3L) * 5L);
        assertThat(f.payloadOf(Tuple.of(2L, 7L))).isZero();
        assertThatThrownBy(() -> f.payloadOf(Tuple.of(1L)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has 2 values (A,C), got 1");
    }

    @Test
    void countsInsertsAndBorderCrossingsOnlyOnceTheInsertSucceeded() {
        // Two view trees: V0(A) = sum over B of R(A,B), and the free-only atom S(A).
        ViewForest<Long> f = forest("Q(A) :- R(A,B), S(A)");
        assertThat(compiled.treeCount()).isEqualTo(2);
        f.insert("S", Tuple.of(1L), 1L);
        f.insert("R", Tuple.of(1L, 1L), 0L);
        assertThat(f.insertCount()).as("a no-op is counted").isEqualTo(2);
        f.insert("R", Tuple.of(1L, 1L), 2L);
        f.insert("R", Tuple.of(1L, 2L), 3L);
        assertThat(f.insertCount()).isEqualTo(4);
        assertThat(deltas).hasSize(3);
        assertThat(crossings).as("each root tuple crosses once, on its first non-zero payload").hasSize(2)
                .doesNotHaveDuplicates();
        assertThat(f.borderCrossings()).isEqualTo(2);

        assertThatThrownBy(() -> f.insert("R", Tuple.of(1L, 3L), Long.MAX_VALUE))
                .isInstanceOf(PayloadOverflowException.class);
        assertThatThrownBy(() -> f.insert("T", Tuple.of(1L), 1L)).isInstanceOf(IllegalArgumentException.class);
        assertThat(f.insertCount()).as("rejected and rolled-back inserts are not counted").isEqualTo(4);
        assertThat(deltas).as("a rolled-back insert reports nothing").hasSize(3);
        assertThat(f.payloadOf(Tuple.of(1L))).isEqualTo(5L);

        f.insert("R", Tuple.of(2L, 1L), 4L);
        assertThat(f.payloadOf(Tuple.of(2L))).as("S(2) is absent").isZero();
        f.insert("S", Tuple.of(2L), 1L);
        assertThat(f.payloadOf(Tuple.of(2L))).isEqualTo(4L);
        assertThat(f.borderCrossings()).isEqualTo(4);
        assertThat(crossings).hasSize(4).doesNotHaveDuplicates();
    }
}
