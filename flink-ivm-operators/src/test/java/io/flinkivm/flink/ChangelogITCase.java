package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import io.flinkivm.core.testing.DifferentialCase;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.ResultDiff;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The output-sensitive changelog on a MiniCluster: random queries (p-hierarchical, cyclic, not
 * p-hierarchical), every semiring, heap and RocksDB, parallelism 1 and 2, triggers every few inserts of
 * each ingest subtask and on a processing-time period. The rows of each trigger are exactly the
 * difference between the naive evaluator's results over the cuts of the previous trigger and of this
 * one: a new tuple as {@code +I}, a changed one as {@code +U} (after a {@code -U} with the old payload
 * when asked for), a vanished one as {@code -D}, each tuple once.
 */
class ChangelogITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        String[] semirings = {"natural", "min-plus", "provenance", "boolean", "viterbi", "covariance:2", "integer"};
        long seed = 1;
        for (String semiring : semirings) {
            for (String backend : List.of("hashmap", "rocksdb")) {
                for (int parallelism : List.of(1, 2)) {
                    out.add(Arguments.of(semiring, backend, parallelism, seed++));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} p={2} seed={3}")
    @MethodSource("cases")
    void eachTriggerEmitsTheOraclesDifference(String semiringName, String backend, int parallelism, long seed)
            throws Exception {
        Semiring<?> k = Semirings.byName(semiringName);
        check(k, backend, parallelism, seed);
    }

    private static <T> void check(Semiring<T> k, String backend, int parallelism, long seed) throws Exception {
        for (long s = 9_000 + seed * 10; s < 9_000 + seed * 10 + 3; s++) {
            DifferentialCase<T> c = DifferentialCase.generate(k, s);
            run(
                    k,
                    c.stream(),
                    Planner.plan(c.query(), k),
                    backend,
                    parallelism,
                    s % 2 == 0,
                    "seed " + s + " (" + c.kind() + ")");
        }
    }

    private static <T> void run(
            Semiring<T> k,
            List<Insert<T>> stream,
            MaintenancePlan plan,
            String backend,
            int parallelism,
            boolean updateBefore,
            String label)
            throws Exception {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(FlinkIvmITCase.config(backend, parallelism));
        IvmTestJobs.Partitioned<T> parts = IvmTestJobs.Partitioned.roundRobin(stream, parallelism);
        DataStream<InputRecord<T>> input =
                IvmTestJobs.source(env, parts, FlinkIvm.inputType(k), RateLimiterStrategy.perSecond(400));
        IvmOptions options = IvmOptions.defaults()
                .withOutputMode(OutputMode.CHANGELOG)
                .withSnapshotEvery(3)
                .withSnapshotPeriod(Duration.ofMillis(20))
                .withUpdateBefore(updateBefore);
        IvmJob<T> job = FlinkIvm.maintain(input, plan, k, options);
        List<ResultRecord<T>> collected = new ArrayList<>();
        try (CloseableIterator<ResultRecord<T>> it = job.results().executeAndCollect("changelog " + label)) {
            it.forEachRemaining(collected::add);
        }
        String context = plan.kind() + " " + backend + " p=" + parallelism + (updateBefore ? " with -U" : "") + ", "
                + label + ", " + plan.query();
        checkTriggers(k, plan, parts, collected, job.results().getParallelism(), updateBefore, context);
    }

    /** Every complete trigger, in id order, against the oracle's difference since the previous one. */
    static <T> void checkTriggers(
            Semiring<T> k,
            MaintenancePlan plan,
            IvmTestJobs.Partitioned<T> parts,
            List<ResultRecord<T>> collected,
            int sinks,
            boolean updateBefore,
            String context) {
        TreeMap<Long, List<ResultRecord<T>>> rows = new TreeMap<>();
        Map<Long, Integer> ends = new HashMap<>();
        Map<Long, long[]> cuts = Snapshots.cuts(collected);
        for (ResultRecord<T> r : collected) {
            if (r.isEnd()) {
                ends.merge(r.snapshotId(), 1, Integer::sum);
            } else {
                assertThat(r.kind()).as(context).isNotEqualTo(ResultRecord.Kind.SNAPSHOT);
                rows.computeIfAbsent(r.snapshotId(), id -> new ArrayList<>()).add(r);
            }
        }
        assertThat(ends).as("the end of the input is a trigger: " + context).containsKey((long)
                parts.stream().size());
        Map<Tuple, T> before = new HashMap<>();
        int triggers = 0;
        for (long id : new TreeMap<>(ends).keySet()) {
            assertThat(ends.get(id))
                    .as("end markers of trigger %d, %s", id, context)
                    .isEqualTo(sinks);
            KDatabase<T> db = new KDatabase<>(k);
            for (Insert<T> i : parts.claimed(cuts.get(id))) {
                db.insert(i.relation(), i.tuple(), i.payload());
            }
            Map<Tuple, T> now = NaiveEvaluator.evaluate(plan.query(), k, db.relations());
            String what = "trigger " + id + " (cut " + Arrays.toString(cuts.get(id)) + ") of " + context;
            Map<Tuple, T> upserts = new HashMap<>();
            Set<Tuple> deletes = new HashSet<>();
            Map<Tuple, T> updatedFrom = new HashMap<>();
            for (ResultRecord<T> r : rows.getOrDefault(id, List.of())) {
                switch (r.kind()) {
                    case INSERT -> {
                        assertThat(before)
                                .as("+I of a tuple that was there: " + r + ", " + what)
                                .doesNotContainKey(r.tuple());
                        assertThat(upserts.put(r.tuple(), r.payload()))
                                .as("twice: " + r + ", " + what)
                                .isNull();
                    }
                    case UPDATE_AFTER -> {
                        assertThat(before)
                                .as("+U of a tuple that was not there: " + r + ", " + what)
                                .containsKey(r.tuple());
                        assertThat(upserts.put(r.tuple(), r.payload()))
                                .as("twice: " + r + ", " + what)
                                .isNull();
                        assertThat(updatedFrom.containsKey(r.tuple()))
                                .as("-U before +U: " + r + ", " + what)
                                .isEqualTo(updateBefore);
                    }
                    case UPDATE_BEFORE -> {
                        assertThat(updateBefore)
                                .as("-U only when asked for, " + what)
                                .isTrue();
                        assertThat(updatedFrom.put(r.tuple(), r.payload()))
                                .as("twice: " + r + ", " + what)
                                .isNull();
                    }
                    case DELETE ->
                        assertThat(deletes.add(r.tuple()))
                                .as("twice: " + r + ", " + what)
                                .isTrue();
                    default -> throw new AssertionError(r);
                }
            }
            Map<Tuple, T> wantUpserts = new HashMap<>();
            now.forEach((t, p) -> {
                if (!before.containsKey(t)
                        || !ResultDiff.compare(k, Map.of(t, p), List.of(Map.entry(t, before.get(t))))
                                .isEmpty()) {
                    wantUpserts.put(t, p);
                }
            });
            Set<Tuple> wantDeletes = new HashSet<>(before.keySet());
            wantDeletes.removeAll(now.keySet());
            assertThat(ResultDiff.compare(k, wantUpserts, List.copyOf(upserts.entrySet())))
                    .as(what)
                    .isEmpty();
            assertThat(deletes).as(what).isEqualTo(wantDeletes);
            Map<Tuple, T> wantFrom = new HashMap<>();
            updatedFrom.keySet().forEach(t -> wantFrom.put(t, before.get(t)));
            assertThat(ResultDiff.compare(k, wantFrom, List.copyOf(updatedFrom.entrySet())))
                    .as("-U " + what)
                    .isEmpty();
            before.clear();
            before.putAll(now);
            triggers++;
        }
        assertThat(triggers).as(context).isPositive();
    }
}
