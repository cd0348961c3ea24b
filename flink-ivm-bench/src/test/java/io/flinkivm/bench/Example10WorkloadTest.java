package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.examples.jobs.KeyDistribution;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Example10WorkloadTest {
    private final Example10Workload w = new Example10Workload();

    @Test
    void theSameArgumentsGiveTheSameStream() {
        InsertStream a = w.generate(1_000, Distribution.ZIPF, 5);
        InsertStream b = w.generate(1_000, Distribution.ZIPF, 5);
        InsertStream c = w.generate(1_000, Distribution.ZIPF, 6);

        assertThat(a.size()).isEqualTo(1_000);
        boolean differs = false;
        for (int i = 0; i < a.size(); i++) {
            assertThat(a.relation(i)).isEqualTo(b.relation(i));
            assertThat(a.tuple(i)).isEqualTo(b.tuple(i));
            assertThat(a.payload(i)).isEqualTo(b.payload(i));
            differs |= !a.tuple(i).equals(c.tuple(i));
        }
        assertThat(differs).isTrue();
    }

    @Test
    void insertsFitTheQueryAndTheDomains() {
        ConjunctiveQuery q = QueryParser.parse(w.query());
        int n = 10_000;
        InsertStream s = w.generate(n, Distribution.UNIFORM, 1);
        Map<String, Integer> perRelation = new HashMap<>();
        for (int i = 0; i < n; i++) {
            assertThat(s.tuple(i).arity()).isEqualTo(q.arityOf(s.relation(i)));
            for (int j = 0; j < s.tuple(i).arity(); j++) {
                assertThat((Long) s.tuple(i).get(j)).isBetween(0L, (long) GeneratedStream.keyDomain(n) - 1);
            }
            assertThat(s.payload(i)).isBetween(1L, (long) Example10Workload.MAX_PAYLOAD);
            perRelation.merge(s.relation(i), 1, Integer::sum);
        }
        assertThat(perRelation).containsOnlyKeys("R1", "R2", "R3", "R4", "R5");
        assertThat(perRelation.values()).allSatisfy(c -> assertThat(c).isBetween(1_800, 2_200));
    }

    @Test
    void zipfSkewsTheHubVariable() {
        int n = 20_000;
        InsertStream s = w.generate(n, Distribution.ZIPF, 3);
        int hot = 0;
        int total = 0;
        for (int i = 0; i < n; i++) {
            if (!s.relation(i).equals("R4")) {
                total++;
                if ((Long) s.tuple(i).get(0) == 0L) {
                    hot++;
                }
            }
        }
        double expected = new KeyDistribution(GeneratedStream.keyDomain(n), Distribution.ZIPF_EXPONENT).probability(0);
        assertThat((double) hot / total).isCloseTo(expected, org.assertj.core.data.Offset.offset(0.02));
    }
}
