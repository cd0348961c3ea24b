package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.PHierarchicalPlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.DifferentialCase;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.RandomStreams;
import io.flinkivm.core.testing.TestSemirings;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AblationEngineTest {

    static Iterable<String> semirings() {
        return TestSemirings.BUILT_INS;
    }

    @ParameterizedTest
    @MethodSource("semirings")
    void sameResultsAsTheOracle(String name) {
        check(TestSemirings.byName(name));
    }

    private static <T> void check(Semiring<T> k) {
        int checked = 0;
        for (long seed = 1; checked < 150 && seed < 2000; seed++) {
            DifferentialCase<T> c = DifferentialCase.generate(k, seed);
            if (!(Planner.plan(c.query(), k) instanceof PHierarchicalPlan plan)) {
                continue;
            }
            checked++;
            AblationEngine<T> engine = new AblationEngine<>(plan, k);
            KDatabase<T> db = new KDatabase<>(k);
            for (Insert<T> i : c.stream()) {
                engine.insert(i.relation(), i.tuple(), i.payload());
                db.insert(i.relation(), i.tuple(), i.payload());
            }
            Map<Tuple, T> actual = new HashMap<>();
            for (Iterator<ResultTuple<T>> it = engine.enumerate(); it.hasNext(); ) {
                ResultTuple<T> r = it.next();
                actual.put(r.tuple(), r.payload());
            }
            assertThat(actual)
                    .as("seed %d, %s\n%s", seed, c.query(), RandomStreams.format(c.stream()))
                    .isEqualTo(NaiveEvaluator.evaluate(c.query(), k, db.relations()));
        }
        assertThat(checked).isGreaterThan(50);
    }
}
