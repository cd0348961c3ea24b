package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.DifferentialCase;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.TestSemirings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engines' changelog against the oracle: for random queries (p-hierarchical, cyclic, not
 * p-hierarchical), streams and trigger points (the case's checkpoints), over every semiring, the
 * changes of a trigger are exactly the difference between the oracle's results at the previous
 * trigger and at this one, row for row, each tuple once, with both payloads; applied in order they
 * give the oracle's result.
 */
class EngineChangelogTest {
    private static final int CASES = 150;

    static Stream<String> semirings() {
        return Stream.concat(TestSemirings.BUILT_INS.stream(), TestSemirings.NON_POSITIVE.stream());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("semirings")
    void changesBetweenTriggersAreTheOraclesDifference(String name) {
        Semiring<?> k = TestSemirings.byName(name);
        for (long seed = 0; seed < CASES; seed++) {
            check(k, 7_000_000L + seed);
        }
    }

    private static <T> void check(Semiring<T> k, long seed) {
        DifferentialCase<T> c = DifferentialCase.generate(k, seed);
        List<Map<Tuple, T>> expected = c.expected();
        List<MaintenancePlan> plans = new ArrayList<>();
        plans.add(Planner.plan(c.query(), k, Planner.Strategy.AUTO));
        if (!(plans.get(0) instanceof io.flinkivm.core.plan.FallbackPlan)) {
            plans.add(Planner.plan(c.query(), k, Planner.Strategy.FALLBACK));
        }
        for (MaintenancePlan plan : plans) {
            IvmEngine<T> engine = Engines.withChangelog(plan, k);
            Map<Tuple, T> applied = new HashMap<>();
            Map<Tuple, T> before = new HashMap<>();
            int inserted = 0;
            for (int cp = 0; cp < c.checkpoints().size(); cp++) {
                for (; inserted < c.checkpoints().get(cp); inserted++) {
                    Insert<T> i = c.stream().get(inserted);
                    engine.insert(i.relation(), i.tuple(), i.payload());
                }
                String what = plan.kind() + " " + c.describe(inserted);
                Map<Tuple, ResultChange<T>> changes = new HashMap<>();
                engine.changes(ch -> assertThat(changes.put(ch.tuple(), ch))
                        .as("twice in one trigger: " + ch + "\n" + what)
                        .isNull());
                Map<Tuple, T> now = expected.get(cp);
                Map<Tuple, ResultChange<T>> want = new HashMap<>();
                now.forEach((t, p) -> {
                    if (!p.equals(before.get(t))) {
                        want.put(t, new ResultChange<>(t, p, before.get(t)));
                    }
                });
                before.forEach((t, p) -> {
                    if (!now.containsKey(t)) {
                        want.put(t, new ResultChange<>(t, null, p));
                    }
                });
                assertThat(changes).as(what).isEqualTo(want);
                changes.values().forEach(ch -> {
                    if (ch.payload() == null) {
                        applied.remove(ch.tuple());
                    } else {
                        applied.put(ch.tuple(), ch.payload());
                    }
                });
                assertThat(applied).as(what).isEqualTo(now);
                before.clear();
                before.putAll(now);
            }
        }
    }

    @Test
    void anEngineWithoutAChangelogSaysHowToGetOne() {
        IvmEngine<Long> e = Engines.create(
                Planner.plan(QueryParser.parse("Q(A) :- R(A,B), S(A)"), NaturalSemiring.INSTANCE),
                NaturalSemiring.INSTANCE);
        assertThatThrownBy(() -> e.changes(ch -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Engines.withChangelog");
    }
}
