package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.engine.AbsentRowException;
import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.engine.KeyViolationException;
import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.KeyedCase;
import io.flinkivm.core.testing.RandomChanges;
import io.flinkivm.core.testing.ResultDiff;
import io.flinkivm.core.testing.StarSchemas;
import io.flinkivm.flink.source.PartitionedSource;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Plans under keys with deletes and updates on a MiniCluster at parallelism 2: star and snowflake
 * schemas ({@link StarSchemas}) whose rows are inserted, deleted and updated (a dimension row's update
 * keeps its key and changes an attribute, so its key stage retracts and re-emits the rows that look it
 * up), from sources that keep one key's changes in one split, in order, as a CDC source does. The job's
 * final result equals the in-memory engine's over the same changes, and it dead-letters as many changes
 * as the engine rejects (rows that break a key, deletes of rows that are not there).
 */
class KeyedChangelogITCase {
    private static final int PARALLELISM = 2;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(PARALLELISM)
            .build());

    /** A change, and whether the in-memory engine rejected it. */
    record Change<T>(ChangeKind kind, String relation, Tuple tuple, T payload, boolean rejected) {}

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"integer, hashmap", "'product(SUM,MIN,MAX)', rocksdb"})
    void keyedPlansUnderDeletesMatchTheInMemoryEngine(String ringName, String backend) throws Exception {
        run(RandomChanges.ring(ringName), backend);
    }

    private static <T> void run(Ring<T> ring, String backend) throws Exception {
        int cases = 0;
        for (long seed = 44_000; cases < 3; seed++) {
            KeyedCase<T> generated = StarSchemas.generate(ring, seed);
            ConjunctiveQuery q = generated.query();
            MaintenancePlan plan = Planner.plan(q, ring, Planner.Strategy.AUTO, Inputs.changelog(q.relations()));
            if (!(plan instanceof KeyedPlan keyed) || keyed.absorptions().isEmpty()) {
                continue;
            }
            cases++;
            IvmEngine<T> engine = Engines.create(plan, ring);
            List<Change<T>> changes = changes(generated, ring, engine, new Random(seed));
            check(plan, ring, changes, engine, backend, "seed " + seed + ": " + plan.query());
        }
    }

    /** The case's rows as inserts, with deletes of live rows and updates of keyed rows among them, applied to {@code engine}. */
    private static <T> List<Change<T>> changes(KeyedCase<T> c, Ring<T> ring, IvmEngine<T> engine, Random r) {
        ConjunctiveQuery q = c.query();
        Map<String, Map<Tuple, T>> live = new HashMap<>();
        List<Change<T>> out = new ArrayList<>();
        for (Insert<T> i : c.stream()) {
            out.add(apply(
                    ring, engine, live, ChangeKind.INSERT, i.relation(), i.tuple(), RandomChanges.rowPayload(ring, r)));
            String rel = q.relations().get(r.nextInt(q.relations().size()));
            Tuple row = RandomChanges.liveRow(live.get(rel), r);
            if (row == null) {
                continue;
            }
            int roll = r.nextInt(10);
            if (roll < 3) {
                out.add(apply(
                        ring,
                        engine,
                        live,
                        ChangeKind.DELETE,
                        rel,
                        row,
                        live.get(rel).get(row)));
            } else if (roll < 7 && q.keyOf(rel) != null && row.arity() > 1) {
                Object[] values = row.toArray();
                values[1 + r.nextInt(values.length - 1)] = (long) r.nextInt(3);
                out.add(apply(
                        ring,
                        engine,
                        live,
                        ChangeKind.UPDATE_BEFORE,
                        rel,
                        row,
                        live.get(rel).get(row)));
                out.add(apply(
                        ring,
                        engine,
                        live,
                        ChangeKind.UPDATE_AFTER,
                        rel,
                        Tuple.wrap(values),
                        RandomChanges.rowPayload(ring, r)));
            }
        }
        return out;
    }

    private static <T> Change<T> apply(
            Ring<T> ring,
            IvmEngine<T> engine,
            Map<String, Map<Tuple, T>> live,
            ChangeKind kind,
            String rel,
            Tuple tuple,
            T payload) {
        try {
            engine.apply(kind, rel, tuple, payload);
        } catch (KeyViolationException | AbsentRowException e) {
            return new Change<>(kind, rel, tuple, payload, true);
        }
        Map<Tuple, T> rows = live.computeIfAbsent(rel, k -> new HashMap<>());
        T before = rows.get(tuple);
        T delta = kind.isRetraction() ? ring.negate(payload) : payload;
        T sum = before == null ? delta : ring.plus(before, delta);
        if (ring.isZero(sum)) {
            rows.remove(tuple);
        } else {
            rows.put(tuple, sum);
        }
        return new Change<>(kind, rel, tuple, payload, false);
    }

    private static <T> void check(
            MaintenancePlan plan,
            Ring<T> ring,
            List<Change<T>> changes,
            IvmEngine<T> engine,
            String backend,
            String what)
            throws Exception {
        KeyedPlan keyed = (KeyedPlan) plan;
        // One key's (or, without a key stage, one row's) changes in one split, in order.
        List<List<InputRecord<T>>> splits = new ArrayList<>();
        for (int p = 0; p < PARALLELISM; p++) {
            splits.add(new ArrayList<>());
        }
        for (int i = 0; i < changes.size(); i++) {
            Change<T> c = changes.get(i);
            Tuple by = keyed.stage(c.relation()) >= 0
                    ? c.tuple().project(plan.query().keyOf(c.relation()).positionArray())
                    : c.tuple();
            int split = Math.floorMod(c.relation().hashCode() * 31 + by.hashCode(), PARALLELISM);
            splits.get(split).add(InputRecord.change(c.kind(), c.relation(), c.tuple(), c.payload(), "change " + i));
        }
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(FlinkIvmITCase.config(backend, PARALLELISM));
        DataStream<InputRecord<T>> input = env.fromSource(
                        PartitionedSource.of(splits, FlinkIvm.inputType(ring)),
                        WatermarkStrategy.noWatermarks(),
                        "changes")
                .setParallelism(PARALLELISM);
        IvmJob<T> job = FlinkIvm.maintain(input, plan, ring, IvmOptions.defaults());
        List<ResultRecord<T>> collected = new ArrayList<>();
        List<DeadLetter> letters = new ArrayList<>();
        try (CloseableIterator<ResultRecord<T>> results = job.results().collectAsync();
                CloseableIterator<DeadLetter> dead = job.deadLetters().collectAsync()) {
            env.execute(what);
            results.forEachRemaining(collected::add);
            dead.forEachRemaining(letters::add);
        }
        Map<Tuple, T> got = Snapshots.latest(collected, job.results().getParallelism());
        String context = what + "\n" + plan.explain() + "dead letters: " + letters;
        assertThat(ResultDiff.compare(ring, IvmTestJobs.enumerate(engine), List.copyOf(got.entrySet())))
                .as("final result of %s", context)
                .isEmpty();
        assertThat(letters).as("dead letters of %s", context).hasSize((int)
                changes.stream().filter(Change::rejected).count());
    }
}
