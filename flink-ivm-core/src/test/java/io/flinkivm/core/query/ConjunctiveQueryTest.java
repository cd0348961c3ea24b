package io.flinkivm.core.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConjunctiveQueryTest {
    static final ConjunctiveQuery Q = QueryParser.parse("Q(S) :- customer(K,S), orders(O,K), lineitem(O)");

    @Test
    void keysAreOrderedByRelationAndCheckedAgainstTheBody() {
        ConjunctiveQuery keyed =
                Q.withKeys(List.of(ConjunctiveQuery.Key.of("orders", 0), ConjunctiveQuery.Key.of("customer", 0)));
        assertThat(keyed.keys())
                .containsExactly(ConjunctiveQuery.Key.of("customer", 0), ConjunctiveQuery.Key.of("orders", 0));
        assertThat(keyed.keyOf("orders")).isEqualTo(ConjunctiveQuery.Key.of("orders", 0));
        assertThat(keyed.keyOf("lineitem")).isNull();
        assertThat(keyed.keyText(keyed.keyOf("orders"))).isEqualTo("orders(O)");
        assertThat(keyed.withKeys(keyed.keys())).isSameAs(keyed);
        assertThat(Q.withKeys(List.of())).isSameAs(Q);
        assertThatThrownBy(() -> Q.withKeys(List.of(ConjunctiveQuery.Key.of("part", 0))))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("Q uses no relation part; it uses customer, orders, lineitem");
        assertThatThrownBy(() -> Q.withKeys(List.of(ConjunctiveQuery.Key.of("orders", 2))))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("key of orders names column 2, but orders has arity 2 (columns 0 to 1)");
        assertThatThrownBy(() ->
                        Q.withKeys(List.of(ConjunctiveQuery.Key.of("orders", 0), ConjunctiveQuery.Key.of("orders", 1))))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("relation orders has two keys");
        assertThatThrownBy(() -> ConjunctiveQuery.Key.of("orders", 1, 1))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("names column 1 twice");
        assertThatThrownBy(() -> ConjunctiveQuery.Key.of("orders", -1))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("columns count from 0");
    }

    @Test
    void keyColumnsAreASet() {
        assertThat(ConjunctiveQuery.Key.of("R", 2, 0)).isEqualTo(ConjunctiveQuery.Key.of("R", 0, 2));
        assertThat(ConjunctiveQuery.Key.of("R", 2, 0).positionArray()).containsExactly(0, 2);
    }

    @Test
    void aQueryWithoutKeysIsTheValueItWasBeforeKeys() {
        ConjunctiveQuery plain = new ConjunctiveQuery(Q.name(), Q.head(), Q.body());
        assertThat(plain.toString()).isEqualTo("Q(S) :- customer(K,S), orders(O,K), lineitem(O)");
        assertThat(plain.hashCode())
                .isEqualTo(31 * (31 * "Q".hashCode() + Q.head().hashCode())
                        + Q.body().hashCode());
        ConjunctiveQuery keyed = Q.withKeys(List.of(ConjunctiveQuery.Key.of("orders", 0)));
        assertThat(keyed).isNotEqualTo(plain);
        assertThat(keyed.toString()).isEqualTo("Q(S) :- customer(K,S), orders(O,K), lineitem(O) KEY orders(O)");
    }
}
