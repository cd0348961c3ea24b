package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.analysis.QueryClassifier;
import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.RandomChanges;
import io.flinkivm.core.testing.RandomQueries;
import io.flinkivm.core.testing.RandomStreams;
import io.flinkivm.core.testing.ResultDiff;
import io.flinkivm.flink.source.PartitionedSource;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deletes and updates on a MiniCluster at parallelism 2: random queries (q-hierarchical, arbitrary, not
 * p-hierarchical) with random relations read as changelogs, random interleavings of inserts, deletes
 * and updates (some of absent rows, some on insert-only relations), over the integer ring (COUNT,
 * SUM), the covariance ring and the product ring of SUM, MIN and MAX (multisets), heap (own maps and managed state) and RocksDB, snapshots and the changelog output. Each row's
 * changes sit in one source split, in order, as a CDC source keyed by row sends them. The final result
 * equals the in-memory engine's after the same changes applied one by one ({@link IvmEngine#apply}), and
 * the dead letters are exactly the changes that engine rejects, each with its reason.
 */
class ChangelogInputITCase {
    private static final int PARALLELISM = 2;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(PARALLELISM)
            .build());

    /** A change of the generated stream, with what the in-memory engine said about it. */
    record Change<T>(ChangeKind kind, String relation, Tuple tuple, T payload, String rejected) {}

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        String[][] layouts = {{"hashmap", "own"}, {"hashmap", "managed"}, {"rocksdb", "managed"}};
        long seed = 31_000;
        for (String ring : RandomChanges.RINGS) {
            for (String[] layout : layouts) {
                for (OutputMode mode : OutputMode.values()) {
                    out.add(Arguments.of(ring, layout[0], layout[1].equals("managed"), mode, seed++));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} managed={2} {3} seed={4}")
    @MethodSource("cases")
    void flinkAgreesWithTheInMemoryEngine(String ring, String backend, boolean managed, OutputMode mode, long seed)
            throws Exception {
        check(RandomChanges.ring(ring), backend, managed, mode, true, seed);
    }

    /**
     * The fallback checks deletes itself: against an atom's relation for a row the atom matches (a
     * self-join's two atoms reach the same verdict; one dead letter), and against the rows it keeps
     * apart for a row no atom matches (the selection {@code 'x'} rejects it); at P = 2 over cells, on
     * each layout, exactly the in-memory engine's dead letters and result.
     */
    @ParameterizedTest(name = "{0} managed={1}")
    @CsvSource({"hashmap, false", "hashmap, true", "rocksdb, true"})
    void theFallbackChecksDeletesOfRowsItKeepsAndOfRowsNoAtomMatches(String backend, boolean managed) throws Exception {
        Ring<Long> ring = IntegerRing.INSTANCE;
        ConjunctiveQuery q = QueryParser.parse("Q(A,C) :- R(A,B), R(B,C), T(C,'x')");
        MaintenancePlan plan = Planner.plan(q, ring, Planner.Strategy.AUTO, Inputs.changelog("R", "T"));
        assertThat(plan.kind()).isEqualTo(PlanKind.FALLBACK_DELTA_JOIN);
        IvmEngine<Long> engine = Engines.create(plan, ring);
        Map<String, Map<Tuple, Long>> rows = new HashMap<>();
        List<Change<Long>> changes = new ArrayList<>();
        changes.add(apply(engine, ring, rows, ChangeKind.INSERT, "R", Tuple.of(1L, 2L), 2L));
        changes.add(apply(engine, ring, rows, ChangeKind.INSERT, "R", Tuple.of(2L, 3L), 1L));
        changes.add(apply(engine, ring, rows, ChangeKind.INSERT, "T", Tuple.of(3L, "x"), 1L));
        changes.add(apply(engine, ring, rows, ChangeKind.INSERT, "T", Tuple.of(3L, "y"), 4L));
        changes.add(apply(engine, ring, rows, ChangeKind.DELETE, "R", Tuple.of(1L, 2L), 3L)); // more than held
        changes.add(apply(engine, ring, rows, ChangeKind.DELETE, "R", Tuple.of(5L, 5L), 1L)); // absent
        changes.add(apply(engine, ring, rows, ChangeKind.DELETE, "T", Tuple.of(3L, "y"), 5L)); // more, no atom
        changes.add(apply(engine, ring, rows, ChangeKind.DELETE, "T", Tuple.of(4L, "y"), 1L)); // absent, no atom
        changes.add(apply(engine, ring, rows, ChangeKind.DELETE, "T", Tuple.of(3L, "y"), 4L)); // all of it
        changes.add(apply(engine, ring, rows, ChangeKind.DELETE, "T", Tuple.of(3L, "y"), 1L)); // gone
        changes.add(apply(engine, ring, rows, ChangeKind.DELETE, "R", Tuple.of(1L, 2L), 1L));
        changes.add(apply(engine, ring, rows, ChangeKind.UPDATE_BEFORE, "R", Tuple.of(2L, 3L), 1L));
        changes.add(apply(engine, ring, rows, ChangeKind.UPDATE_AFTER, "R", Tuple.of(2L, 4L), 1L));
        changes.add(apply(engine, ring, rows, ChangeKind.INSERT, "T", Tuple.of(4L, "x"), 1L));
        assertThat(changes.stream().filter(c -> c.rejected() != null)).hasSize(5);
        run(plan, ring, changes, engine, backend, managed, OutputMode.CHANGELOG, true, "fallback checks, " + backend);
    }

    static Stream<Arguments> uncheckedCases() {
        return Stream.of(
                Arguments.of("integer", "hashmap", OutputMode.CHANGELOG, 32_000L),
                Arguments.of("integer", "rocksdb", OutputMode.SNAPSHOT, 32_001L),
                Arguments.of("covariance-ring:2", "hashmap", OutputMode.SNAPSHOT, 32_002L));
    }

    /**
     * Without the row check ({@link IvmOptions#withRowCheck}): only the changes the engine accepted, dealt
     * round robin, so a row's delete may reach the ingest before its insert; the result is the same.
     */
    @ParameterizedTest(name = "{0} {1} {2} seed={3}")
    @MethodSource("uncheckedCases")
    void withoutTheRowCheckValidChangesInAnyOrderGiveTheSameResult(
            String ring, String backend, OutputMode mode, long seed) throws Exception {
        check(RandomChanges.ring(ring), backend, false, mode, false, seed);
    }

    /**
     * Checkpoints every 100 ms and two failures (at a record between the source and the row check, and
     * in a checkpoint in flight), the source let through a few changes per checkpoint: after recovery the
     * final result (delivered exactly once) is the in-memory engine's, on the heap backend's own maps and
     * on RocksDB. The row check's state is restored with the rest: a delete after the restore of a row
     * inserted before it is accepted.
     */
    @ParameterizedTest(name = "{0} seed={1}")
    @MethodSource("faultCases")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void recoveryFromFailuresKeepsTheResult(String backend, long seed, @TempDir Path dir) throws Exception {
        Ring<Long> ring = IntegerRing.INSTANCE;
        Random r = new Random(seed);
        ConjunctiveQuery q = seed % 2 == 0 ? RandomQueries.qHierarchical(r) : RandomQueries.notPHierarchical(r);
        MaintenancePlan plan = Planner.plan(q, ring, Planner.Strategy.AUTO, Inputs.changelog(q.relations()));
        IvmEngine<Long> engine = Engines.create(plan, ring);
        List<Change<Long>> changes = new ArrayList<>();
        while (changes.size() < 400) {
            changes.addAll(generate(q, ring, q.relations(), engine, r));
        }
        List<IvmTestJobs.Fault> faults = List.of(
                new IvmTestJobs.Fault(IvmTestJobs.FaultKind.AT_RECORD, true, 1 + r.nextInt(30)),
                new IvmTestJobs.Fault(IvmTestJobs.FaultKind.IN_CHECKPOINT, true, 1 + r.nextInt(2)));
        String what = "faults " + backend + " seed " + seed + ", " + plan.kind() + " of " + q;
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(IvmTestJobs.checkpointed(backend, PARALLELISM, dir));
        DataStream<InputRecord<Long>> input = IvmTestJobs.injectFaults(
                env.fromSource(
                                PartitionedSource.of(splits(changes, true), FlinkIvm.inputType(ring))
                                        .withRateLimit(RateLimiterStrategy.perCheckpoint(60)),
                                WatermarkStrategy.noWatermarks(),
                                "changes")
                        .setParallelism(PARALLELISM)
                        .uid("test-changes"),
                what,
                faults);
        IvmJob<Long> job =
                FlinkIvm.maintain(input, plan, ring, IvmOptions.defaults().withSnapshotEvery(25));
        List<ResultRecord<Long>> collected = new ArrayList<>();
        try (CloseableIterator<ResultRecord<Long>> it = job.results().executeAndCollect(what)) {
            it.forEachRemaining(collected::add);
        }
        assertThat(IvmTestJobs.fired(what)).as("failures thrown in " + what).hasSize(faults.size());
        Map<Tuple, Long> got = Snapshots.latest(collected, job.results().getParallelism());
        assertThat(ResultDiff.compare(ring, IvmTestJobs.enumerate(engine), List.copyOf(got.entrySet())))
                .as("final result after recovery, " + what)
                .isEmpty();
    }

    static Stream<Arguments> faultCases() {
        return Stream.of(Arguments.of("hashmap", 33_000L), Arguments.of("rocksdb", 33_001L));
    }

    /** The changes as records in {@link #PARALLELISM} splits: by row (one row's changes in one split, in order), or round robin. */
    private static <T> List<List<InputRecord<T>>> splits(List<Change<T>> changes, boolean byRow) {
        List<List<InputRecord<T>>> splits = new ArrayList<>();
        for (int p = 0; p < PARALLELISM; p++) {
            splits.add(new ArrayList<>());
        }
        for (int i = 0; i < changes.size(); i++) {
            Change<T> c = changes.get(i);
            int split = byRow
                    ? Math.floorMod(c.relation().hashCode() * 31 + c.tuple().hashCode(), PARALLELISM)
                    : i % PARALLELISM;
            splits.get(split).add(InputRecord.change(c.kind(), c.relation(), c.tuple(), c.payload(), "change " + i));
        }
        return splits;
    }

    private static <T> void check(
            Ring<T> ring, String backend, boolean managed, OutputMode mode, boolean rowCheck, long seed)
            throws Exception {
        Random r = new Random(seed);
        // Every third case q-hierarchical at least, so that both plans run in each configuration.
        for (int round = 0; round < 3; round++) {
            ConjunctiveQuery q = round == 0
                    ? RandomQueries.qHierarchical(r)
                    : round == 1 ? RandomQueries.arbitrary(r) : RandomQueries.notPHierarchical(r);
            List<String> changelog = new ArrayList<>();
            for (String rel : q.relations()) {
                if (r.nextInt(3) != 0) {
                    changelog.add(rel);
                }
            }
            if (changelog.isEmpty()) {
                changelog.add(q.relations().get(0));
            }
            MaintenancePlan plan = Planner.plan(q, ring, Planner.Strategy.AUTO, Inputs.changelog(changelog));
            boolean qHierarchical = QueryClassifier.classify(q).qHierarchical().holds();
            assertThat(plan.kind()).isEqualTo(qHierarchical ? PlanKind.Q_HIERARCHICAL : PlanKind.FALLBACK_DELTA_JOIN);
            IvmEngine<T> engine = Engines.create(plan, ring);
            List<Change<T>> changes = generate(q, ring, changelog, engine, r);
            String what = plan.kind() + " " + backend + (managed ? " managed" : "") + " " + mode + ", seed " + seed
                    + " round " + round + ", " + q + ", changelog " + changelog;
            if (!rowCheck) {
                changes.removeIf(c -> c.rejected() != null);
                what += " without the row check";
            }
            run(plan, ring, changes, engine, backend, managed, mode, rowCheck, what);
        }
    }

    /** Random changes, each applied to {@code engine} as it is made (rejected ones are marked). */
    static <T> List<Change<T>> generate(
            ConjunctiveQuery q, Ring<T> ring, List<String> changelog, IvmEngine<T> engine, Random r) {
        RandomStreams.Domain domain = RandomStreams.Domain.random(r);
        List<Insert<T>> pool =
                RandomStreams.generate(q, ring, r, 40, domain, rnd -> RandomChanges.rowPayload(ring, rnd));
        Map<String, Map<Tuple, T>> rows = new HashMap<>();
        List<Change<T>> out = new ArrayList<>();
        int length = 60 + r.nextInt(60);
        for (int step = 0; step < length; step++) {
            int op = r.nextInt(100);
            String rel = changelog.get(r.nextInt(changelog.size()));
            Map<Tuple, T> live = rows.computeIfAbsent(rel, k -> new HashMap<>());
            if (op < 45) {
                Insert<T> row = pool.get(r.nextInt(pool.size()));
                out.add(apply(
                        engine,
                        ring,
                        rows,
                        ChangeKind.INSERT,
                        row.relation(),
                        row.tuple(),
                        RandomChanges.rowPayload(ring, r)));
            } else if (op < 70) {
                Tuple target = RandomChanges.liveRow(live, r);
                if (target == null || r.nextInt(8) == 0) {
                    target = RandomChanges.absentRow(q, rel, live, domain, r);
                }
                if (target != null) {
                    T present = live.get(target);
                    T payload = present == null || r.nextInt(4) == 0 ? RandomChanges.rowPayload(ring, r) : present;
                    out.add(apply(engine, ring, rows, ChangeKind.DELETE, rel, target, payload));
                }
            } else if (op < 95) {
                Tuple before = RandomChanges.liveRow(live, r);
                if (before != null) {
                    out.add(apply(engine, ring, rows, ChangeKind.UPDATE_BEFORE, rel, before, live.get(before)));
                    Tuple after = domain.tuple(r, q.arityOf(rel));
                    out.add(apply(
                            engine,
                            ring,
                            rows,
                            ChangeKind.UPDATE_AFTER,
                            rel,
                            after,
                            RandomChanges.rowPayload(ring, r)));
                }
            } else {
                List<String> insertOnly = new ArrayList<>(q.relations());
                insertOnly.removeAll(changelog);
                if (!insertOnly.isEmpty()) {
                    String other = insertOnly.get(r.nextInt(insertOnly.size()));
                    out.add(apply(
                            engine,
                            ring,
                            rows,
                            ChangeKind.DELETE,
                            other,
                            domain.tuple(r, q.arityOf(other)),
                            RandomChanges.rowPayload(ring, r)));
                }
            }
        }
        return out;
    }

    private static <T> Change<T> apply(
            IvmEngine<T> engine,
            Ring<T> ring,
            Map<String, Map<Tuple, T>> rows,
            ChangeKind kind,
            String relation,
            Tuple tuple,
            T payload) {
        try {
            engine.apply(kind, relation, tuple, payload);
        } catch (IllegalArgumentException rejected) {
            return new Change<>(kind, relation, tuple, payload, rejected.getMessage());
        }
        Map<Tuple, T> live = rows.computeIfAbsent(relation, k -> new HashMap<>());
        T delta = kind.isRetraction() ? ring.negate(payload) : payload;
        T updated = live.containsKey(tuple) ? ring.plus(live.get(tuple), delta) : delta;
        if (ring.isZero(updated)) {
            live.remove(tuple);
        } else {
            live.put(tuple, updated);
        }
        return new Change<>(kind, relation, tuple, payload, null);
    }

    private static <T> void run(
            MaintenancePlan plan,
            Ring<T> ring,
            List<Change<T>> changes,
            IvmEngine<T> engine,
            String backend,
            boolean managed,
            OutputMode mode,
            boolean rowCheck,
            String what)
            throws Exception {
        // One row's changes in one split, in order (with the row check).
        List<List<InputRecord<T>>> splits = splits(changes, rowCheck);
        int rejected = (int) changes.stream().filter(c -> c.rejected() != null).count();
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(FlinkIvmITCase.config(backend, PARALLELISM));
        DataStream<InputRecord<T>> input = env.fromSource(
                        PartitionedSource.of(splits, FlinkIvm.inputType(ring)),
                        WatermarkStrategy.noWatermarks(),
                        "changes")
                .setParallelism(PARALLELISM);
        IvmOptions options = IvmOptions.defaults()
                .withOutputMode(mode)
                .withSnapshotEvery(7)
                .withManagedState(managed)
                .withRowCheck(rowCheck);
        IvmJob<T> job = FlinkIvm.maintain(input, plan, ring, options);
        List<ResultRecord<T>> collected = new ArrayList<>();
        List<DeadLetter> letters = new ArrayList<>();
        try (CloseableIterator<ResultRecord<T>> results = job.results().collectAsync();
                CloseableIterator<DeadLetter> dead = job.deadLetters().collectAsync()) {
            env.execute(what);
            results.forEachRemaining(collected::add);
            dead.forEachRemaining(letters::add);
        }
        int sinks = job.results().getParallelism();
        Map<Tuple, T> got = mode == OutputMode.CHANGELOG
                ? Snapshots.changelogStates(collected, sinks).lastEntry().getValue()
                : Snapshots.latest(collected, sinks);
        Map<Tuple, T> want = IvmTestJobs.enumerate(engine);
        assertThat(ResultDiff.compare(ring, want, List.copyOf(got.entrySet())))
                .as("final result of " + what)
                .isEmpty();
        assertThat(letters).as("dead letters of " + what).hasSize(rejected);
        for (int i = 0; i < changes.size(); i++) {
            Change<T> c = changes.get(i);
            if (c.rejected() != null) {
                String origin = "change " + i;
                assertThat(letters).as("dead letter of " + c + " in " + what).anySatisfy(l -> {
                    assertThat(l.origin()).isEqualTo(origin);
                    assertThat(l.reason()).contains(c.relation() + c.tuple());
                });
            }
        }
    }
}
