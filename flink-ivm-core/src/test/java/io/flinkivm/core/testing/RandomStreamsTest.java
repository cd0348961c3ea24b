package io.flinkivm.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RandomStreamsTest {

    private static final ConjunctiveQuery Q = QueryParser.parse("Q(A) :- R(A,B), S(B), R(B,2), T()");

    @Test
    void insertsFitTheQuerysRelationsAndDomain() {
        Random r = new Random(7);
        int zeros = 0;
        int repeats = 0;
        int inserts = 0;
        Set<Class<?>> types = new HashSet<>();
        for (int s = 0; s < 50; s++) {
            RandomStreams.Domain domain = RandomStreams.Domain.random(r);
            List<Insert<Long>> stream = RandomStreams.generate(
                    Q, NaturalSemiring.INSTANCE, r, 40, domain, TestSemirings.payloads(NaturalSemiring.INSTANCE));
            assertThat(stream).hasSize(40);
            Set<String> seen = new HashSet<>();
            for (Insert<Long> i : stream) {
                assertThat(Q.relations()).contains(i.relation());
                assertThat(i.tuple().arity()).isEqualTo(Q.arityOf(i.relation()));
                for (Object v : i.tuple().toArray()) {
                    types.add(v.getClass());
                    assertThat(Integer.parseInt(String.valueOf(v))).isBetween(0, domain.size() - 1);
                }
                zeros += i.payload() == 0L ? 1 : 0;
                repeats += seen.add(i.relation() + i.tuple()) ? 0 : 1;
                inserts++;
            }
        }
        assertThat(zeros).isGreaterThan(inserts / 20);
        assertThat(repeats).isGreaterThan(inserts / 5);
        assertThat(types).containsExactlyInAnyOrder(Long.class, String.class);
    }

    @Test
    void plantedInsertsMakeJoinsComplete() {
        int nonEmpty = 0;
        for (long seed = 0; seed < 100; seed++) {
            DifferentialCase<Long> c = DifferentialCase.generate(NaturalSemiring.INSTANCE, seed);
            List<Map<Tuple, Long>> results = c.expected();
            nonEmpty += results.get(results.size() - 1).isEmpty() ? 0 : 1;
        }
        assertThat(nonEmpty).as("cases with a non-empty final result").isGreaterThan(60);
    }

    @Test
    void sameRandomGivesTheSameStream() {
        List<Insert<Long>> a = RandomStreams.generate(Q, NaturalSemiring.INSTANCE, new Random(3), 30);
        List<Insert<Long>> b = RandomStreams.generate(Q, NaturalSemiring.INSTANCE, new Random(3), 30);
        assertThat(a).isEqualTo(b);
        assertThat(RandomStreams.format(a)).startsWith("    1. ");
    }
}
