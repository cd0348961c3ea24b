package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.KeyedCase;
import io.flinkivm.core.testing.ResultDiff;
import io.flinkivm.core.testing.TestSemirings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random queries with random keys over streams that mostly respect them ({@link KeyedCase}): after
 * every insert the engine's result (its iterator, and folded from its changelog) equals the naive
 * evaluator's over the inserts it accepted, and it rejects exactly the rows that break a key it
 * checks. Keys let the planner run a closure, or an absorbed query, of many queries that are not
 * p-hierarchical. Half of the cases trust the keys that only the head's closure relies on, over a
 * stream that respects them.
 */
class KeyedEngineDifferentialTest {
    private static final int CASES = 500 * Integer.getInteger("differential.scale", 1);

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"natural", "min-plus", "provenance", "boolean"})
    void keyedEnginesAgreeWithTheOracleOverTheAcceptedRows(String name) {
        Semiring<?> k = TestSemirings.byName(name);
        long base = 7_000_000L * (TestSemirings.BUILT_INS.indexOf(name) + 1);
        int cases = name.equals("provenance") ? CASES / 3 : CASES;
        int[] counts = new int[3];
        for (int i = 0; i < cases; i++) {
            check(k, base + i, counts);
        }
        System.out.printf(
                "KeyedEngineDifferentialTest %s: %d cases, %d on a closure, %d rejected rows, %d with waiting rows%n",
                name, cases, counts[0], counts[1], counts[2]);
        assertThat(counts[0]).as("cases planned on a closure").isGreaterThan(cases / 10);
        assertThat(counts[1]).as("rows rejected for breaking a key").isGreaterThan(cases / 20);
        assertThat(counts[2])
                .as("cases whose closure has rows that wait for their key rows")
                .isGreaterThan(cases / 50);
    }

    private static <T> void check(Semiring<T> k, long seed, int[] counts) {
        KeyedCase<T> generated = KeyedCase.generate(k, seed);
        // Every other case checks the keys the head's closure relies on; the others trust them, over a
        // stream that respects those keys.
        MaintenancePlan plan = Planner.plan(generated.query(), k).withKeyChecks((seed / 2) % 2 == 0);
        plan.validate();
        KeyedCase<T> c = generated.respectingTrusted(plan);
        Set<Integer> rejected = c.rejected(plan);
        boolean changelog = seed % 2 == 0;
        IvmEngine<T> engine = changelog ? Engines.withChangelog(plan, k) : Engines.create(plan, k);
        Map<Tuple, T> folded = new HashMap<>();
        String context = c.describe() + "plan:\n" + plan.explain();
        boolean waited = false;
        for (int n = 0; n < c.stream().size(); n++) {
            Insert<T> i = c.stream().get(n);
            try {
                engine.insert(i.relation(), i.tuple(), i.payload());
                assertThat(rejected)
                        .as("insert %d was accepted; %s", n + 1, context)
                        .doesNotContain(n);
            } catch (KeyViolationException e) {
                assertThat(rejected)
                        .as("insert %d was rejected (%s); %s", n + 1, e.getMessage(), context)
                        .contains(n);
                assertThat(e.getMessage()).contains("breaks KEY " + i.relation() + "(");
            }
            waited |= engine instanceof KeyedEngine<T> keyed && keyed.waitingRows() > 0;
            Map<Tuple, T> want = c.expected(n + 1, rejected);
            List<Map.Entry<Tuple, T>> got = new ArrayList<>();
            for (Iterator<ResultTuple<T>> it = engine.enumerate(); it.hasNext(); ) {
                ResultTuple<T> t = it.next();
                got.add(Map.entry(t.tuple(), t.payload()));
            }
            assertThat(ResultDiff.compare(k, want, got))
                    .as("after insert %d of %s", n + 1, context)
                    .isEmpty();
            if (changelog) {
                engine.changes((ResultChange<T> ch) -> folded.put(ch.tuple(), ch.payload()));
                assertThat(folded)
                        .as("changelog folded after insert %d of %s", n + 1, context)
                        .isEqualTo(want);
            }
            for (Map.Entry<Tuple, T> e : want.entrySet()) {
                assertThat(engine.lookup(e.getKey()))
                        .as("lookup%s of %s", e.getKey(), context)
                        .isEqualTo(e.getValue());
            }
        }
        assertThat(engine.insertCount()).isEqualTo(c.stream().size() - rejected.size());
        if (plan instanceof KeyedPlan) {
            counts[0]++;
            counts[1] += rejected.size();
            counts[2] += waited ? 1 : 0;
        }
    }
}
