package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.NaturalSemiring;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadsTest {

    @Test
    void theQueriesHaveTheClassesTheBenchClaims() {
        assertThat(CoreEngineSystem.isPHierarchical(new Example10Workload())).isTrue();
        assertThat(CoreEngineSystem.isPHierarchical(new TpchWorkload())).isTrue();
        assertThat(CoreEngineSystem.isPHierarchical(new StarWorkload())).isTrue();
        assertThat(CoreEngineSystem.isPHierarchical(new PathWorkload())).isFalse();
        var star = Planner.plan(QueryParser.parse(StarWorkload.QUERY), NaturalSemiring.INSTANCE);
        assertThat(star.explain()).contains("q-hierarchical: yes");
        assertThat(Planner.plan(QueryParser.parse(new TpchWorkload().query()), NaturalSemiring.INSTANCE)
                        .explain())
                .contains("q-hierarchical: no");
        assertThat(Planner.plan(QueryParser.parse(PathWorkload.QUERY), NaturalSemiring.INSTANCE)
                        .kind())
                .isNotEqualTo(PlanKind.P_HIERARCHICAL);
        assertThat(CoreEngineSystem.ablation().appliesTo(new PathWorkload())).isFalse();
        assertThat(CoreEngineSystem.fallback().appliesTo(new PathWorkload())).isTrue();
    }

    @Test
    void generatedStreamsFitTheirQueriesAndRepeat() {
        for (Workload w : List.of(new StarWorkload(), new PathWorkload(), new TpchWorkload())) {
            ConjunctiveQuery q = QueryParser.parse(w.query());
            for (Distribution d : w.distributions(List.of(Distribution.UNIFORM, Distribution.ZIPF))) {
                InsertStream a = w.generate(3_000, d, 9);
                InsertStream b = w.generate(3_000, d, 9);
                assertThat(a.size()).as(w.name()).isEqualTo(3_000);
                Map<String, Integer> perRelation = new HashMap<>();
                for (int i = 0; i < a.size(); i++) {
                    assertThat(a.tuple(i).arity()).isEqualTo(q.arityOf(a.relation(i)));
                    assertThat(a.payload(i)).isPositive();
                    assertThat(a.tuple(i)).isEqualTo(b.tuple(i));
                    assertThat(a.relation(i)).isEqualTo(b.relation(i));
                    perRelation.merge(a.relation(i), 1, Integer::sum);
                }
                assertThat(perRelation.keySet()).as(w.name()).containsExactlyInAnyOrderElementsOf(q.relations());
            }
        }
    }

    @Test
    void tpchHasItsOwnDataAndAScaleFactorThatGrowsWithN() {
        TpchWorkload w = new TpchWorkload();

        assertThat(w.distributions(List.of(Distribution.UNIFORM, Distribution.ZIPF)))
                .containsExactly(Distribution.TPCH);
        assertThat(TpchWorkload.scaleFactor(1_000_000)).isCloseTo(0.1346, org.assertj.core.data.Offset.offset(0.001));
        assertThat(TpchWorkload.scaleFactor(10)).isEqualTo(TpchWorkload.MIN_SCALE_FACTOR);
        InsertStream s = w.generate(20_000, Distribution.TPCH, 1);
        long lineitems = 0;
        for (int i = 0; i < s.size(); i++) {
            lineitems += s.relation(i).equals("Lineitem") ? 1 : 0;
        }
        // TPC-H has about four lineitems per order and ten orders per customer.
        assertThat(lineitems / (double) s.size()).isBetween(0.70, 0.85);
        assertThat(s.distribution().label()).isEqualTo("tpch");
    }
}
