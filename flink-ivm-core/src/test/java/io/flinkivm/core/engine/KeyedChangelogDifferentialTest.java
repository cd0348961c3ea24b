package io.flinkivm.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.KeyedCase;
import io.flinkivm.core.testing.RandomChanges;
import io.flinkivm.core.testing.ResultDiff;
import io.flinkivm.core.testing.StarSchemas;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Star and snowflake schemas ({@link StarSchemas}) under inserts, deletes and updates over a ring:
 * where the planner runs a closure or an absorbed query under the keys (q-hierarchical), the engine's
 * result after every change equals the naive evaluator's over the live rows it accepted. A dimension
 * row's update changes its attributes under its key (its stage retracts and re-emits the rows that look
 * it up); an insert with the key value of a live row breaks the key (any second row, where the table is
 * absorbed) and is rejected with one {@link KeyViolationException}; a delete of a row that is not live
 * with one {@link AbsentRowException}.
 */
class KeyedChangelogDifferentialTest {
    private static final int CASES = 300 * Integer.getInteger("differential.scale", 1);

    static Stream<String> rings() {
        return RandomChanges.RINGS.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rings")
    void keyedPlansUnderDeletesAgreeWithTheOracle(String name) {
        Ring<?> ring = RandomChanges.ring(name);
        int[] counts = new int[4];
        for (int i = 0; i < CASES; i++) {
            check(ring, 12_000_000L * (RandomChanges.RINGS.indexOf(name) + 1) + i, counts);
        }
        System.out.printf(
                "KeyedChangelogDifferentialTest %s: %d cases, %d keyed (%d absorbed), %d key rows updated%n",
                name, CASES, counts[0], counts[1], counts[2]);
        assertThat(counts[0]).as("cases on a keyed plan").isGreaterThan(CASES / 4);
        assertThat(counts[1]).as("cases on an absorbed query").isGreaterThan(CASES / 10);
        assertThat(counts[2]).as("updates of key rows that rows looked up").isGreaterThan(CASES / 2);
        assertThat(counts[3]).as("inserts rejected for breaking a key").isGreaterThan(CASES / 10);
    }

    private static <T> void check(Ring<T> ring, long seed, int[] counts) {
        KeyedCase<T> generated = StarSchemas.generate(ring, seed);
        ConjunctiveQuery q = generated.query();
        Inputs inputs = Inputs.changelog(q.relations());
        MaintenancePlan plan =
                Planner.plan(q, ring, Planner.Strategy.AUTO, inputs).withKeyChecks(seed % 2 == 0);
        plan.validate();
        if (!(plan instanceof KeyedPlan keyed)) {
            return;
        }
        counts[0]++;
        counts[1] += keyed.absorptions().isEmpty() ? 0 : 1;
        Random r = new Random(seed);
        Model<T> model = new Model<>(ring, keyed, q);
        IvmEngine<T> engine = Engines.create(plan, ring);
        String context = generated.describe() + "plan:\n" + plan.explain();
        List<String> log = new ArrayList<>();
        for (Insert<T> i : generated.stream()) {
            T payload = RandomChanges.rowPayload(ring, r);
            model.apply(engine, log, i.relation(), i.tuple(), payload, false, counts, context);
            int roll = r.nextInt(10);
            if (roll < 3) {
                // Delete a live row, all of it.
                String rel = q.relations().get(r.nextInt(q.relations().size()));
                Tuple live = RandomChanges.liveRow(model.rows.get(rel), r);
                if (live != null) {
                    model.apply(engine, log, rel, live, model.rows.get(rel).get(live), true, counts, context);
                }
            } else if (roll < 6) {
                // Update a live row of a keyed relation: same key, another value in a non-key column.
                String rel = q.relations().get(r.nextInt(q.relations().size()));
                ConjunctiveQuery.Key key = q.keyOf(rel);
                Tuple live = key == null ? null : RandomChanges.liveRow(model.rows.get(rel), r);
                if (live != null && live.arity() > 1) {
                    Object[] values = live.toArray();
                    int column = 1 + r.nextInt(values.length - 1);
                    values[column] = (long) r.nextInt(3);
                    T before = model.rows.get(rel).get(live);
                    boolean lookedUp = model.stageHolds(rel, live);
                    model.apply(engine, log, rel, live, before, true, counts, context);
                    model.apply(
                            engine,
                            log,
                            rel,
                            Tuple.wrap(values),
                            RandomChanges.rowPayload(ring, r),
                            false,
                            counts,
                            context);
                    counts[2] += lookedUp && keyed.isLookedUp(rel) ? 1 : 0;
                }
            }
        }
    }

    /** The live rows the engine accepted, and what its key stages hold, as the plan's rules say. */
    private static final class Model<T> {
        final Ring<T> ring;
        final KeyedPlan plan;
        final ConjunctiveQuery query;
        final Map<String, Map<Tuple, T>> rows = new HashMap<>();
        /** Per relation with a key stage: the row each key value holds there, with its payload. */
        final Map<String, Map<Tuple, Tuple>> stages = new HashMap<>();

        Model(Ring<T> ring, KeyedPlan plan, ConjunctiveQuery query) {
            this.ring = ring;
            this.plan = plan;
            this.query = query;
        }

        boolean reachesStage(String relation, Tuple tuple) {
            if (plan.stage(relation) < 0) {
                return false;
            }
            for (Atom a : query.atomsOfRelation(relation)) {
                if (a.match(tuple) != null) {
                    return true;
                }
            }
            return plan.isLookedUp(relation);
        }

        Tuple key(String relation, Tuple tuple) {
            return tuple.project(query.keyOf(relation).positionArray());
        }

        boolean stageHolds(String relation, Tuple tuple) {
            return reachesStage(relation, tuple)
                    && tuple.equals(stages.getOrDefault(relation, Map.of()).get(key(relation, tuple)));
        }

        void apply(
                IvmEngine<T> engine,
                List<String> log,
                String relation,
                Tuple tuple,
                T payload,
                boolean delete,
                int[] counts,
                String context) {
            log.add((delete ? "delete " : "insert ") + relation + tuple + " " + ring.format(payload));
            Map<Tuple, T> live = rows.computeIfAbsent(relation, k -> new HashMap<>());
            T present = live.get(tuple);
            boolean absent = delete && (present == null || !ring.canRemove(present, payload));
            boolean breaks = false;
            boolean stage = !ring.isZero(payload) && reachesStage(relation, tuple);
            Map<Tuple, Tuple> held = stages.computeIfAbsent(relation, k -> new HashMap<>());
            if (!delete && stage) {
                Tuple other = held.get(key(relation, tuple));
                breaks = other != null && (plan.absorbs(relation) || !other.equals(tuple));
            }
            String what = "change " + log.size() + " of " + context + "changes:\n" + String.join("\n", log);
            try {
                if (delete) {
                    engine.delete(relation, tuple, payload);
                } else {
                    engine.insert(relation, tuple, payload);
                }
                assertThat(absent)
                        .as("accepted a delete of an absent row; %s", what)
                        .isFalse();
                assertThat(breaks)
                        .as("accepted a row that breaks a key; %s", what)
                        .isFalse();
            } catch (AbsentRowException e) {
                assertThat(absent).as("rejected %s; %s", e.getMessage(), what).isTrue();
                return;
            } catch (KeyViolationException e) {
                assertThat(breaks).as("rejected %s; %s", e.getMessage(), what).isTrue();
                counts[3]++;
                return;
            }
            T delta = delete ? ring.negate(payload) : payload;
            T sum = present == null ? delta : ring.plus(present, delta);
            if (ring.isZero(sum)) {
                live.remove(tuple);
                if (stage && tuple.equals(held.get(key(relation, tuple)))) {
                    held.remove(key(relation, tuple));
                }
            } else {
                live.put(tuple, sum);
                if (stage) {
                    held.putIfAbsent(key(relation, tuple), tuple);
                }
            }
            Map<Tuple, T> want = NaiveEvaluator.evaluate(query, ring, rows);
            List<Map.Entry<Tuple, T>> got = new ArrayList<>();
            for (Iterator<ResultTuple<T>> it = engine.enumerate(); it.hasNext(); ) {
                ResultTuple<T> t = it.next();
                got.add(Map.entry(t.tuple(), t.payload()));
            }
            assertThat(ResultDiff.compare(ring, want, got)).as(what).isEmpty();
        }
    }
}
