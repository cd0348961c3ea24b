package io.flinkivm.core.partition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RelationRatesTest {

    private static final ConjunctiveQuery SELF_JOIN = QueryParser.parse("Q(A,C) :- E(A,B), E(B,C), L(C)");

    @Test
    void aPartIsAsFastAsItsAtomsTogether() {
        RelationRates rates = new RelationRates(Map.of("E", 10.0, "L", 2.5));
        // Parts: both E atoms, the first E atom, L.
        double[] w = rates.weights(SELF_JOIN, List.of(List.of(0, 1), List.of(0), List.of(2)));
        assertThat(w).containsExactly(20.0, 10.0, 2.5);
    }

    @Test
    void withoutRatesEveryPartWeighsOne() {
        assertThat(RelationRates.none().weights(SELF_JOIN, List.of(List.of(0, 1), List.of(2))))
                .containsExactly(1.0, 1.0);
        assertThat(RelationRates.none().describe()).isEqualTo("none");
        assertThat(RelationRates.none().isEmpty()).isTrue();
    }

    @Test
    void ratesMustNameEveryRelationAndNoOther() {
        assertThatThrownBy(() -> new RelationRates(Map.of("E", 1.0)).checkCovers(SELF_JOIN))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must name every relation of Q (E, L)")
                .hasMessageContaining("missing: L");
        assertThatThrownBy(() -> new RelationRates(Map.of("E", 1.0, "L", 1.0, "Lx", 2.0)).weights(SELF_JOIN, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not in the query: Lx");
    }

    @Test
    void ratesArePositiveAndFinite() {
        assertThatThrownBy(() -> new RelationRates(Map.of("E", 0.0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the rate of relation E must be a positive finite number");
        assertThatThrownBy(() -> new RelationRates(Map.of("E", Double.POSITIVE_INFINITY)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the rate of relation E");
        Map<String, Double> nullRate = new LinkedHashMap<>();
        nullRate.put("E", null);
        assertThatThrownBy(() -> new RelationRates(nullRate))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got null");
        assertThatThrownBy(() -> new RelationRates(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be null");
    }

    @Test
    void describesTheRatesInTheGivenOrder() {
        Map<String, Double> given = new LinkedHashMap<>();
        given.put("Lineitem", 6_001_215.0);
        given.put("Customer", 150_000.0);
        given.put("Orders", 0.25);
        assertThat(new RelationRates(given).describe()).isEqualTo("Lineitem=6001215 Customer=150000 Orders=0.25");
        assertThat(RelationRates.number(1.5e-7)).isEqualTo("1.5e-07");
    }
}
