package io.flinkivm.core.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AtomRouterTest {
    private static final ConjunctiveQuery SELF_JOIN = QueryParser.parse("Q(A,C) :- R(A,B), R(B,C), S(A,'x'), S(A,A)");

    private static List<String> route(AtomRouter router, String relation, Tuple tuple) {
        List<String> out = new ArrayList<>();
        int sent = router.route(
                router.checkedRelation(relation, tuple.arity()),
                tuple,
                5L,
                (atom, key, payload) -> out.add(atom + ":" + key + "+" + payload));
        assertThat(sent).isEqualTo(out.size());
        return out;
    }

    @Test
    void oneDeltaPerAtomOfTheRelationThatTheTuplePassesInBodyOrder() {
        AtomRouter router = new AtomRouter(SELF_JOIN);
        assertThat(route(router, "R", Tuple.of(1L, 2L))).containsExactly("0:(1, 2)+5", "1:(1, 2)+5");
        // S(A,'x') keeps the tuple over A; S(A,A) only a tuple whose values agree.
        assertThat(route(router, "S", Tuple.of(1L, "x"))).containsExactly("2:(1)+5");
        assertThat(route(router, "S", Tuple.of(3L, 3L))).containsExactly("3:(3)+5");
        assertThat(route(router, "S", Tuple.of(3L, 4L))).isEmpty();
    }

    @Test
    void keysAreProjectedWhenPositionsAreGiven() {
        AtomRouter router = new AtomRouter(SELF_JOIN, new int[][] {{1}, {0, 1}, {0}, {}});
        assertThat(route(router, "R", Tuple.of(1L, 2L))).containsExactly("0:(2)+5", "1:(1, 2)+5");
        assertThat(router.key(3, Tuple.of(3L, 3L))).isEqualTo(Tuple.EMPTY);
        assertThat(router.key(3, Tuple.of(3L, 4L))).isNull();
    }

    @Test
    void unknownRelationsAndWrongAritiesAreNamed() {
        AtomRouter router = new AtomRouter(SELF_JOIN);
        assertThat(router.relation("S")).isEqualTo(1);
        assertThat(router.relation("T")).isEqualTo(-1);
        assertThat(router.problem("R", 2)).isNull();
        assertThat(router.problem("T", 2)).isEqualTo("unknown relation 'T'; the query uses R, S");
        assertThatThrownBy(() -> router.checkedRelation("R", 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("relation R has arity 2, got 3 values");
    }
}
