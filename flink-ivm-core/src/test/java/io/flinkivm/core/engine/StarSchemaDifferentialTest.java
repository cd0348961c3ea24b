package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.KeyedCase;
import io.flinkivm.core.testing.ResultDiff;
import io.flinkivm.core.testing.StarSchemas;
import io.flinkivm.core.testing.TestSemirings;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random star and snowflake schemas ({@link StarSchemas}): 4 to 8 tables, two levels of dimensions,
 * dimensions looked up twice through aliases, rows that arrive before their key rows, key rows that
 * a selection drops, and second rows for a dimension's key. After every insert the engine's result
 * equals the naive evaluator's over the rows it accepted, and it rejects exactly the rows that break a
 * key it checks, each with one {@link KeyViolationException}. Most cases run on an absorbed query.
 */
class StarSchemaDifferentialTest {
    private static final int CASES = 300 * Integer.getInteger("differential.scale", 1);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"natural", "min-plus", "provenance", "boolean", "max-plus"})
    void absorbedPlansAgreeWithTheOracle(String name) {
        Semiring<?> k = TestSemirings.byName(name);
        long base = 9_100_000L * (TestSemirings.BUILT_INS.indexOf(name) + 1);
        int cases = name.equals("provenance") ? CASES / 3 : CASES;
        int[] counts = new int[4];
        for (int i = 0; i < cases; i++) {
            check(k, base + i, counts);
        }
        System.out.printf(
                "StarSchemaDifferentialTest %s: %d cases, %d absorbed, %d rejected rows, %d with a dropped key row,"
                        + " %d with waiting rows%n",
                name, cases, counts[0], counts[1], counts[2], counts[3]);
        assertThat(counts[0]).as("cases on an absorbed query").isGreaterThan(cases / 3);
        assertThat(counts[1]).as("rows rejected for breaking a key").isGreaterThan(cases / 10);
        assertThat(counts[2])
                .as("cases where a row looked up a dropped key row")
                .isGreaterThan(cases / 20);
        assertThat(counts[3]).as("cases with rows waiting for their key rows").isGreaterThan(cases / 10);
    }

    private static <T> void check(Semiring<T> k, long seed, int[] counts) {
        KeyedCase<T> generated = StarSchemas.generate(k, seed);
        MaintenancePlan plan = Planner.plan(generated.query(), k).withKeyChecks(seed % 3 == 0);
        plan.validate();
        KeyedCase<T> c = generated.respectingTrusted(plan);
        Set<Integer> rejected = c.rejected(plan);
        IvmEngine<T> engine = Engines.create(plan, k);
        String context = c.describe() + "plan:\n" + plan.explain();
        int violations = 0;
        boolean waited = false;
        long[] dropped = {0};
        for (int n = 0; n < c.stream().size(); n++) {
            Insert<T> i = c.stream().get(n);
            try {
                engine.insert(i.relation(), i.tuple(), i.payload());
                assertThat(rejected)
                        .as("insert %d was accepted; %s", n + 1, context)
                        .doesNotContain(n);
            } catch (KeyViolationException e) {
                violations++;
                assertThat(rejected)
                        .as("insert %d was rejected (%s); %s", n + 1, e.getMessage(), context)
                        .contains(n);
                assertThat(e.getMessage()).startsWith(i.relation() + i.tuple()).contains(" breaks KEY ");
            }
            if (engine instanceof KeyedEngine<T> keyed) {
                waited |= keyed.waitingRows() > 0;
                dropped[0] = keyed.droppedRows();
            }
            Map<Tuple, T> want = c.expected(n + 1, rejected);
            List<Map.Entry<Tuple, T>> got = new ArrayList<>();
            for (Iterator<ResultTuple<T>> it = engine.enumerate(); it.hasNext(); ) {
                ResultTuple<T> t = it.next();
                got.add(Map.entry(t.tuple(), t.payload()));
            }
            assertThat(ResultDiff.compare(k, want, got))
                    .as("after insert %d of %s", n + 1, context)
                    .isEmpty();
        }
        for (Map.Entry<Tuple, T> e : c.expected(c.stream().size(), rejected).entrySet()) {
            assertThat(engine.lookup(e.getKey()))
                    .as("lookup%s of %s", e.getKey(), context)
                    .isEqualTo(e.getValue());
        }
        assertThat(violations).as("one violation per rejected row; %s", context).isEqualTo(rejected.size());
        if (plan instanceof KeyedPlan keyed && !keyed.absorptions().isEmpty()) {
            counts[0]++;
        }
        counts[1] += rejected.size();
        counts[2] += dropped[0] > 0 ? 1 : 0;
        counts[3] += waited ? 1 : 0;
    }
}
