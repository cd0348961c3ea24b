package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.analysis.QueryClassifier;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.RandomChanges;
import io.flinkivm.core.testing.RandomQueries;
import io.flinkivm.core.testing.RandomStreams;
import io.flinkivm.core.testing.ResultDiff;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential tests with deletes and updates: random queries (half q-hierarchical, the rest arbitrary or
 * not p-hierarchical), random rings (integer, covariance-ring:2, the product ring of SUM, MIN and MAX),
 * random relations with deletes, and random interleavings of inserts, deletes and updates (an update is
 * the delete of the old row and the insert of the new one). After every change each engine's result
 * equals the {@link NaiveEvaluator}'s over the live rows; at random triggers the changelog is the
 * oracle's difference; a delete of a row that is not there (or of more than it holds) is rejected and
 * changes nothing, as is a delete on an insert-only relation. Where every relation has deletes, deleting
 * everything at the end leaves no state at all. A failure names the ring and seed.
 */
class ChangelogDifferentialTest {
    private static final int CASES = 400 * Integer.getInteger("differential.scale", 1);

    static Stream<String> rings() {
        return RandomChanges.RINGS.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rings")
    void enginesAgreeWithTheOracleUnderInsertsDeletesAndUpdates(String name) {
        Ring<?> ring = RandomChanges.ring(name);
        Stats stats = new Stats();
        for (int i = 0; i < CASES; i++) {
            check(ring, 9_000_000L * (RandomChanges.RINGS.indexOf(name) + 1) + i, stats);
        }
        System.out.printf("ChangelogDifferentialTest %s: %s%n", name, stats);
        assertThat(stats.qHierarchicalRuns).as("q-hierarchical plan runs").isGreaterThan(CASES / 3);
        assertThat(stats.deletes).as("accepted deletes").isGreaterThan(stats.changes / 8);
        assertThat(stats.rejected).as("rejected deletes").isGreaterThan(CASES / 2);
        assertThat(stats.emptied).as("cases that deleted everything").isGreaterThan(CASES / 10);
    }

    private static <T> void check(Ring<T> ring, long seed, Stats stats) {
        Random r = new Random(seed);
        int roll = r.nextInt(10);
        ConjunctiveQuery q = roll < 5
                ? RandomQueries.qHierarchical(r)
                : roll < 8 ? RandomQueries.arbitrary(r) : RandomQueries.notPHierarchical(r);
        List<String> relations = q.relations();
        List<String> changelog = new ArrayList<>();
        boolean all = r.nextInt(3) == 0;
        for (String rel : relations) {
            if (all || r.nextBoolean()) {
                changelog.add(rel);
            }
        }
        if (changelog.isEmpty()) {
            changelog.add(relations.get(r.nextInt(relations.size())));
        }
        Inputs inputs = Inputs.changelog(changelog);
        MaintenancePlan auto = Planner.plan(q, ring, Planner.Strategy.AUTO, inputs);
        MaintenancePlan fallback = Planner.plan(q, ring, Planner.Strategy.FALLBACK, inputs);
        auto.validate();
        auto.explain();
        boolean qHierarchical = QueryClassifier.classify(q).qHierarchical().holds();
        String what = "ring " + ring.name() + ", seed " + seed + ", query " + q + ", changelog " + changelog;
        assertThat(auto.kind())
                .as(what)
                .isEqualTo(qHierarchical ? PlanKind.Q_HIERARCHICAL : PlanKind.FALLBACK_DELTA_JOIN);
        stats.qHierarchicalRuns += qHierarchical ? 1 : 0;
        Runs<T> runs = new Runs<>(ring, q, what);
        runs.add(auto.kind().name(), Engines.withChangelog(auto, ring));
        runs.add("forced fallback", Engines.create(fallback, ring));
        RandomStreams.Domain domain = RandomStreams.Domain.random(r);
        List<Insert<T>> pool =
                RandomStreams.generate(q, ring, r, 40, domain, rnd -> RandomChanges.rowPayload(ring, rnd));
        int length = 10 + r.nextInt(50);
        for (int step = 0; step < length; step++) {
            runs.step = step;
            int op = r.nextInt(100);
            Insert<T> row = pool.get(r.nextInt(pool.size()));
            String rel = changelog.get(r.nextInt(changelog.size()));
            if (op < 45) {
                T payload = RandomChanges.rowPayload(ring, r);
                runs.insert(row.relation(), row.tuple(), payload);
            } else if (op < 70) {
                Tuple live = RandomChanges.liveRow(runs.rows.get(rel), r);
                Tuple target = live != null && r.nextInt(8) != 0
                        ? live
                        : RandomChanges.absentRow(q, rel, runs.rows.get(rel), domain, r);
                if (target != null) {
                    T present = runs.payload(rel, target);
                    T payload = present == null
                            ? RandomChanges.rowPayload(ring, r)
                            : RandomChanges.deletePayload(ring, present, runs.inserted(rel, target), r);
                    runs.delete(rel, target, payload);
                }
            } else if (op < 92) {
                Tuple live = RandomChanges.liveRow(runs.rows.get(rel), r);
                if (live != null) {
                    T present = runs.payload(rel, live);
                    T payload = RandomChanges.deletePayload(ring, present, runs.inserted(rel, live), r);
                    Insert<T> after = pool.get(r.nextInt(pool.size()));
                    Tuple next = after.relation().equals(rel) ? after.tuple() : live;
                    runs.update(rel, live, payload, next, RandomChanges.rowPayload(ring, r));
                }
            } else {
                List<String> insertOnly = new ArrayList<>(relations);
                insertOnly.removeAll(changelog);
                if (!insertOnly.isEmpty()) {
                    String other = insertOnly.get(r.nextInt(insertOnly.size()));
                    runs.deleteFromInsertOnly(
                            other, domain.tuple(r, q.arityOf(other)), RandomChanges.rowPayload(ring, r));
                }
            }
            runs.compare();
            if (r.nextInt(4) == 0) {
                runs.trigger();
            }
        }
        runs.trigger();
        if (changelog.size() == relations.size()) {
            runs.deleteEverything();
            stats.emptied++;
        }
        stats.add(runs);
    }

    /** The engines of one case, the live rows (the oracle's database) and what was inserted into each row. */
    private static final class Runs<T> {
        final Ring<T> ring;
        final ConjunctiveQuery query;
        final String what;
        final Map<String, IvmEngine<T>> engines = new LinkedHashMap<>();
        final Map<String, Map<Tuple, T>> rows = new HashMap<>();
        final Map<String, Map<Tuple, List<T>>> inserts = new HashMap<>();
        final List<String> log = new ArrayList<>();
        Map<Tuple, T> atTrigger = new HashMap<>();
        int step;
        long changes;
        long deletes;
        long rejected;

        Runs(Ring<T> ring, ConjunctiveQuery query, String what) {
            this.ring = ring;
            this.query = query;
            this.what = what;
        }

        void add(String name, IvmEngine<T> engine) {
            engines.put(name, engine);
        }

        T payload(String relation, Tuple tuple) {
            return rows.getOrDefault(relation, Map.of()).get(tuple);
        }

        List<T> inserted(String relation, Tuple tuple) {
            return inserts.getOrDefault(relation, Map.of()).getOrDefault(tuple, List.of());
        }

        void insert(String relation, Tuple tuple, T payload) {
            log.add("insert " + relation + tuple + " " + ring.format(payload));
            for (IvmEngine<T> e : engines.values()) {
                e.insert(relation, tuple, payload);
            }
            model(relation, tuple, payload, true);
            changes++;
        }

        /** The live rows after adding {@code delta}; an insert's payload is remembered for later deletes. */
        private void model(String relation, Tuple tuple, T delta, boolean insert) {
            Map<Tuple, T> rel = rows.computeIfAbsent(relation, k -> new HashMap<>());
            T old = rel.get(tuple);
            T updated = old == null ? delta : ring.plus(old, delta);
            if (ring.isZero(updated)) {
                rel.remove(tuple);
                inserts.getOrDefault(relation, new HashMap<>()).remove(tuple);
            } else {
                rel.put(tuple, updated);
                if (insert && !ring.isZero(delta)) {
                    inserts.computeIfAbsent(relation, k -> new HashMap<>())
                            .computeIfAbsent(tuple, k -> new ArrayList<>())
                            .add(delta);
                }
            }
        }

        /** Whether the model accepts a delete of {@code payload} from the row. */
        private boolean accepts(String relation, Tuple tuple, T payload) {
            T present = payload(relation, tuple);
            return present != null && ring.canRemove(present, payload);
        }

        void delete(String relation, Tuple tuple, T payload) {
            log.add("delete " + relation + tuple + " " + ring.format(payload));
            boolean ok = accepts(relation, tuple, payload);
            for (Map.Entry<String, IvmEngine<T>> e : engines.entrySet()) {
                long entries = e.getValue().stateEntries();
                try {
                    e.getValue().delete(relation, tuple, payload);
                    assertThat(ok)
                            .as("%s accepted %s\n%s", e.getKey(), log.get(log.size() - 1), describe())
                            .isTrue();
                } catch (AbsentRowException rejected) {
                    assertThat(ok)
                            .as("%s rejected %s: %s\n%s", e.getKey(), log.get(log.size() - 1), rejected, describe())
                            .isFalse();
                    assertThat(rejected.getMessage()).contains(relation + tuple);
                    assertThat(e.getValue().stateEntries())
                            .as("state after a rejected delete")
                            .isEqualTo(entries);
                }
            }
            if (ok) {
                model(relation, tuple, ring.negate(payload), false);
                deletes++;
                changes++;
            } else {
                rejected++;
            }
        }

        void update(String relation, Tuple before, T beforePayload, Tuple after, T afterPayload) {
            log.add("update " + relation + before + " " + ring.format(beforePayload) + " -> " + after + " "
                    + ring.format(afterPayload));
            boolean ok = accepts(relation, before, beforePayload);
            for (Map.Entry<String, IvmEngine<T>> e : engines.entrySet()) {
                try {
                    e.getValue().update(relation, before, beforePayload, after, afterPayload);
                    assertThat(ok)
                            .as("%s accepted %s\n%s", e.getKey(), log.get(log.size() - 1), describe())
                            .isTrue();
                } catch (AbsentRowException rejected) {
                    assertThat(ok)
                            .as("%s rejected %s\n%s", e.getKey(), log.get(log.size() - 1), describe())
                            .isFalse();
                }
            }
            if (ok) {
                model(relation, before, ring.negate(beforePayload), false);
                model(relation, after, afterPayload, true);
                deletes++;
                changes += 2;
            } else {
                rejected++;
            }
        }

        void deleteFromInsertOnly(String relation, Tuple tuple, T payload) {
            for (IvmEngine<T> e : engines.values()) {
                try {
                    e.delete(relation, tuple, payload);
                    throw new AssertionError("a delete on insert-only " + relation + " was accepted\n" + describe());
                } catch (AbsentRowException wrong) {
                    throw new AssertionError("a delete on insert-only " + relation + " was taken for an absent row");
                } catch (IllegalArgumentException expected) {
                    assertThat(expected.getMessage()).contains("insert-only");
                }
            }
        }

        Map<Tuple, T> expected() {
            return NaiveEvaluator.evaluate(query, ring, rows);
        }

        void compare() {
            Map<Tuple, T> want = expected();
            for (Map.Entry<String, IvmEngine<T>> e : engines.entrySet()) {
                List<Map.Entry<Tuple, T>> got = new ArrayList<>();
                for (Iterator<ResultTuple<T>> it = e.getValue().enumerate(); it.hasNext(); ) {
                    ResultTuple<T> t = it.next();
                    got.add(Map.entry(t.tuple(), t.payload()));
                }
                String diff = ResultDiff.compare(ring, want, got);
                assertThat(diff)
                        .as("%s after step %d\n%s", e.getKey(), step, describe())
                        .isEmpty();
                for (Map.Entry<Tuple, T> w : want.entrySet()) {
                    assertThat(e.getValue().lookup(w.getKey()))
                            .as("lookup %s\n%s", w.getKey(), describe())
                            .isEqualTo(w.getValue());
                }
            }
        }

        void trigger() {
            Map<Tuple, T> now = expected();
            Map<Tuple, ResultChange<T>> want = new HashMap<>();
            now.forEach((t, p) -> {
                if (!p.equals(atTrigger.get(t))) {
                    want.put(t, new ResultChange<>(t, p, atTrigger.get(t)));
                }
            });
            atTrigger.forEach((t, p) -> {
                if (!now.containsKey(t)) {
                    want.put(t, new ResultChange<>(t, null, p));
                }
            });
            IvmEngine<T> first = engines.values().iterator().next();
            Map<Tuple, ResultChange<T>> got = new HashMap<>();
            first.changes(c -> assertThat(got.put(c.tuple(), c))
                    .as("twice in one trigger: %s\n%s", c, describe())
                    .isNull());
            assertThat(got).as("changes at step %d\n%s", step, describe()).isEqualTo(want);
            atTrigger = now;
        }

        void deleteEverything() {
            for (Map.Entry<String, Map<Tuple, T>> rel : new ArrayList<>(rows.entrySet())) {
                for (Map.Entry<Tuple, T> row : new ArrayList<>(rel.getValue().entrySet())) {
                    delete(rel.getKey(), row.getKey(), row.getValue());
                }
            }
            compare();
            trigger();
            for (Map.Entry<String, IvmEngine<T>> e : engines.entrySet()) {
                assertThat(e.getValue().stateEntries())
                        .as("%s keeps state with no live row\n%s", e.getKey(), describe())
                        .isZero();
            }
        }

        String describe() {
            StringBuilder sb = new StringBuilder(what).append("\nchanges:\n");
            for (int i = 0; i < log.size(); i++) {
                sb.append(String.format("  %3d. %s%n", i + 1, log.get(i)));
            }
            return sb.toString();
        }
    }

    private static final class Stats {
        int qHierarchicalRuns;
        int emptied;
        long changes;
        long deletes;
        long rejected;

        void add(Runs<?> runs) {
            changes += runs.changes;
            deletes += runs.deletes;
            rejected += runs.rejected;
        }

        @Override
        public String toString() {
            return qHierarchicalRuns + " q-hierarchical cases, " + changes + " changes, " + deletes
                    + " accepted deletes, " + rejected + " rejected, " + emptied + " emptied";
        }
    }
}
