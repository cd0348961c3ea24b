package io.flinkivm.examples.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.analysis.Classification;
import io.flinkivm.core.analysis.QueryClassifier;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The classification and plan claimed for {@link TpchRevenue#QUERY}, and the output helpers. */
class TpchRevenueTest {

    @Test
    void queryIsPHierarchicalButNotQHierarchical() {
        Classification c = QueryClassifier.classify(TpchRevenue.query());

        assertThat(c.summary()).isEqualTo("p-hierarchical, not q-hierarchical, α-acyclic, free-connex");
        assertThat(c.pHierarchical().holds()).isTrue();
        assertThat(c.hierarchical().holds()).isFalse();
        assertThat(c.hierarchical().witness())
                .isEqualTo("variables C and O overlap in Orders(O,C,D) but neither's"
                        + " atoms contain the other's: at(C) = {Customer(C,N,'BUILDING'), Orders(O,C,D)},"
                        + " at(O) = {Orders(O,C,D), Lineitem(O,L)}");
        assertThat(c.qHierarchical().holds()).isFalse();
        assertThat(c.qHierarchical().witness()).startsWith("not hierarchical: variables C and O overlap");
    }

    @Test
    void plannerChoosesThreeViewTreesUnderABooleanJoin() {
        MaintenancePlan plan = Planner.plan(TpchRevenue.query(), NaturalSemiring.INSTANCE);

        assertThat(plan).isInstanceOf(PHierarchicalPlan.class);
        assertThat(((PHierarchicalPlan) plan).viewTrees())
                .extracting(ViewTree::schema)
                .containsExactly(List.of("C"), List.of("O", "C"), List.of("O"));
        // No head variable is in every root schema: the sink is spread over HyperCube cells O=2 C=2.
        assertThat(TpchRevenue.sinkParts(plan, 4)).isEqualTo(4);
        assertThat(plan.explain())
                .contains(
                        "tree 0: root view V[C]",
                        "tree 1: root view V[O,C]",
                        "tree 2: root view V[O]",
                        "Guarantee: amortized O(1) per insert");
        assertThat(TpchRevenue.plan().explain()).isEqualTo(plan.explain());
    }

    @Test
    void topOrdersByRevenueThenByKey() {
        Map<Tuple, Long> revenue =
                Map.of(Tuple.of(3L, 1L), 5L, Tuple.of(1L, 2L), 7L, Tuple.of(2L, 2L), 5L, Tuple.of(4L, 1L), 1L);

        assertThat(TpchRevenue.top(revenue, 3))
                .extracting(Map.Entry::getKey)
                .containsExactly(Tuple.of(1L, 2L), Tuple.of(2L, 2L), Tuple.of(3L, 1L));
        assertThat(TpchRevenue.top(revenue, 10)).hasSize(4);
    }

    @Test
    void revenueIsFormattedWithFourDecimals() {
        assertThat(TpchRevenue.formatRevenue(123_456_789L)).isEqualTo("12345.6789");
        assertThat(TpchRevenue.formatRevenue(5L)).isEqualTo("0.0005");
    }
}
