package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.RandomStreams;
import io.flinkivm.core.testing.TestSemirings;
import io.flinkivm.flink.types.ResultRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stop with a savepoint in the middle of the stream, restore at the same or another parallelism
 * ({@code execution.state-recovery.path}) and continue. The input is in as many partitions as the
 * first job's parallelism; the first job's sources stop by themselves after {@link #STOP_AT} inserts
 * of each partition (a rate limiter that waits for a checkpoint that never comes), so the savepoint
 * is taken at a known position. The first job's snapshots equal an uninterrupted run's; every
 * snapshot of the second job equals the naive evaluator's result over exactly the inserts its cut
 * claims; the last one is the oracle's over the whole stream. Restored at another parallelism, new
 * ingest subtask j takes over a run of consecutive old subtasks (as Flink deals out the source
 * readers' splits) and reads the rest of their partitions one after another, which is how a cut of
 * the second job is read. Covered: a sink keyed by a shared variable, a sink over HyperCube cells
 * (whose cells keep their number and keys across the restore), and the fallback over cells.
 */
class SavepointRescaleITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());

    static final Semiring<Long> K = NaturalSemiring.INSTANCE;
    static final int INSERTS = 1200;
    /** Inserts of each partition before the first job stops. */
    static final int STOP_AT = 150;

    static final long SNAPSHOT_EVERY = 25;

    static final String KEYED = "Q(A,C) :- R(A,B), S(A,B,D), T(A,C,E)";
    static final String ONE_TREE = "Q(A) :- R(A,B), S(A,B,C)";
    static final String CELLS = "Q(A,C) :- R(A,B), S(C,D), T(A,C)";
    static final String PATH = "Q(A,C) :- R(A,B), S(B,C)";

    static final String TRIANGLE = "Q(A,B,C) :- R(A,B), S(B,C), T(A,C)";

    static Stream<Arguments> rescales() {
        return Stream.of(
                Arguments.of(KEYED, 2, 4, "rocksdb"),
                Arguments.of(KEYED, 2, 4, "hashmap"),
                Arguments.of(ONE_TREE, 2, 1, "rocksdb"),
                Arguments.of(KEYED, 2, 2, "hashmap"),
                Arguments.of(CELLS, 2, 4, "rocksdb"),
                Arguments.of(CELLS, 4, 1, "hashmap"),
                Arguments.of(TRIANGLE, 2, 4, "hashmap"),
                Arguments.of(PATH, 2, 4, "rocksdb"),
                Arguments.of(PATH, 2, 1, "hashmap"));
    }

    @ParameterizedTest(name = "{0}: parallelism {1} -> {2}, {3}")
    @MethodSource("rescales")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void stopWithSavepointAndResume(String query, int before, int after, String backend, @TempDir Path dir)
            throws Exception {
        MaintenancePlan plan = Planner.plan(QueryParser.parse(query), K);
        List<Insert<Long>> stream = RandomStreams.generate(
                plan.query(),
                K,
                new Random(query.hashCode()),
                INSERTS,
                new RandomStreams.Domain(6, RandomStreams.ValueType.LONG),
                TestSemirings.payloads(K));
        IvmTestJobs.Partitioned<Long> input = IvmTestJobs.Partitioned.roundRobin(stream, before);
        String run = "savepoint " + query + " " + before + "->" + after + " " + backend;

        // The uninterrupted run.
        JobClient whole =
                execute(plan, input, before, backend, RateLimiterStrategy.noOp(), null, run + " uninterrupted");
        whole.getJobExecutionResult().get();
        List<ResultRecord<Long>> wholeRecords = IvmTestJobs.ofAttempt(IvmTestJobs.seen(run + " uninterrupted"), 0);
        TreeMap<Long, Map<Tuple, Long>> uninterrupted = IvmTestJobs.checkSnapshots(
                plan, K, input, wholeRecords, FlinkIvmITCase.sinkParts(plan, before), run + " uninterrupted");

        // The first job stops after STOP_AT inserts per partition; wait for its last snapshot, then stop it.
        JobClient first = execute(
                plan,
                input,
                before,
                backend,
                RateLimiterStrategy.perCheckpoint(STOP_AT * before),
                null,
                run + " first");
        long lastBefore = (long) before * (STOP_AT / SNAPSHOT_EVERY * SNAPSHOT_EVERY);
        waitForSnapshot(run + " first", lastBefore, FlinkIvmITCase.sinkParts(plan, before));
        String savepoint = first.stopWithSavepoint(
                        false, dir.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
                .get(60, TimeUnit.SECONDS);
        first.getJobExecutionResult().get();
        TreeMap<Long, Map<Tuple, Long>> firstSnapshots = Snapshots.byId(
                IvmTestJobs.ofAttempt(IvmTestJobs.seen(run + " first"), 0), FlinkIvmITCase.sinkParts(plan, before));
        assertThat(firstSnapshots.lastKey())
                .as("the first job stopped in the middle")
                .isEqualTo(lastBefore);
        assertThat(uninterrupted)
                .as("the first job's snapshots are the uninterrupted run's")
                .containsAllEntriesOf(firstSnapshots);

        // The second job restores the savepoint at the other parallelism and reads the rest.
        JobClient second = execute(plan, input, after, backend, RateLimiterStrategy.noOp(), savepoint, run + " second");
        assertThat(second.getJobExecutionResult().get().getJobExecutionResult()).isNotNull();
        assertThat(second.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);
        List<ResultRecord<Long>> secondRecords = IvmTestJobs.ofAttempt(IvmTestJobs.seen(run + " second"), 0);
        int secondParts = FlinkIvmITCase.sinkParts(plan, after);
        TreeMap<Long, Map<Tuple, Long>> secondSnapshots = Snapshots.byId(secondRecords, secondParts);
        Map<Long, long[]> cuts = Snapshots.cuts(secondRecords);

        assertThat(secondSnapshots.firstKey())
                .as("the second job resumed after the first")
                .isGreaterThan(lastBefore);
        assertThat(secondSnapshots.lastKey()).isEqualTo(INSERTS);
        Resumed resumed = new Resumed(input, before, after);
        for (Map.Entry<Long, Map<Tuple, Long>> e : secondSnapshots.entrySet()) {
            long[] cut = cuts.get(e.getKey());
            assertThat(cut).as("cut of snapshot %d", e.getKey()).hasSize(after);
            KDatabase<Long> db = new KDatabase<>(K);
            for (Insert<Long> i : resumed.claimed(cut)) {
                db.insert(i.relation(), i.tuple(), i.payload());
            }
            assertThat(e.getValue())
                    .as("snapshot %d (cut %s) of the second job", e.getKey(), Arrays.toString(cut))
                    .isEqualTo(NaiveEvaluator.evaluate(plan.query(), K, db.relations()));
        }
        assertThat(secondSnapshots.get((long) INSERTS))
                .isEqualTo(IvmTestJobs.oracle(plan, K, stream))
                .isNotEmpty();
    }

    /** A savepoint of the heap backend's in-memory state does not restore on RocksDB: a clear error, no silent loss. */
    @org.junit.jupiter.api.Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aHeapSavepointRestoredOnRocksDbFailsClearly(@TempDir Path dir) throws Exception {
        MaintenancePlan plan = Planner.plan(QueryParser.parse(KEYED), K);
        List<Insert<Long>> stream = RandomStreams.generate(
                plan.query(),
                K,
                new Random(5),
                INSERTS,
                new RandomStreams.Domain(6, RandomStreams.ValueType.LONG),
                TestSemirings.payloads(K));
        IvmTestJobs.Partitioned<Long> input = IvmTestJobs.Partitioned.roundRobin(stream, 2);
        String run = "savepoint across backends";
        JobClient first = execute(
                plan, input, 2, "hashmap", RateLimiterStrategy.perCheckpoint(STOP_AT * 2), null, run + " first");
        waitForSnapshot(run + " first", 2L * (STOP_AT / SNAPSHOT_EVERY * SNAPSHOT_EVERY), 2);
        String savepoint = first.stopWithSavepoint(
                        false, dir.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
                .get(60, TimeUnit.SECONDS);
        first.getJobExecutionResult().get();
        JobClient second = execute(plan, input, 2, "rocksdb", RateLimiterStrategy.noOp(), savepoint, run + " second");
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(
                () -> second.getJobExecutionResult().get());
        assertThat(failure).isNotNull();
        StringBuilder messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
        }
        assertThat(messages.toString())
                .contains(
                        "holds the in-memory state of the hashmap state backend",
                        "restore it with state.backend.type: hashmap");
    }

    /**
     * What the subtasks of the second job read: new subtask j continues the partitions of a run of
     * consecutive old subtasks (each read {@link #STOP_AT} of its own partition), one after another in
     * partition order, and its counts start at their sum.
     */
    record Resumed(IvmTestJobs.Partitioned<Long> input, int before, int after) {
        List<Insert<Long>> claimed(long[] cut) {
            List<Insert<Long>> out = new ArrayList<>();
            for (List<Insert<Long>> p : input.partitions()) {
                out.addAll(p.subList(0, Math.min(STOP_AT, p.size())));
            }
            int base = before / after;
            int extra = before % after;
            for (int j = 0; j < after; j++) {
                int from = j * base + Math.min(j, extra);
                int to = from + base + (j < extra ? 1 : 0);
                List<Insert<Long>> rest = new ArrayList<>();
                long restored = 0;
                for (int p = from; p < to; p++) {
                    List<Insert<Long>> partition = input.partitions().get(p);
                    restored += Math.min(STOP_AT, partition.size());
                    rest.addAll(partition.subList(Math.min(STOP_AT, partition.size()), partition.size()));
                }
                out.addAll(rest.subList(0, Math.toIntExact(cut[j] - restored)));
            }
            return out;
        }
    }

    private static JobClient execute(
            MaintenancePlan plan,
            IvmTestJobs.Partitioned<Long> input,
            int parallelism,
            String backend,
            RateLimiterStrategy<?> rate,
            String savepoint,
            String run)
            throws Exception {
        Configuration c = new Configuration();
        c.setString("state.backend.type", backend);
        c.setString("pipeline.generic-types", "false");
        c.setString("parallelism.default", String.valueOf(parallelism));
        c.setString("restart-strategy.type", "none");
        if (savepoint != null) {
            c.setString("execution.state-recovery.path", savepoint);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
        IvmJob<Long> job = FlinkIvm.maintain(
                IvmTestJobs.source(env, input, FlinkIvm.inputType(K), rate).setParallelism(parallelism),
                plan,
                K,
                IvmOptions.defaults().withSnapshotEvery(SNAPSHOT_EVERY));
        IvmTestJobs.record(job.results(), run);
        return env.executeAsync(run);
    }

    private static void waitForSnapshot(String run, long id, int parts) throws InterruptedException {
        while (IvmTestJobs.SEEN.get(run).stream()
                        .filter(s -> s.record().isEnd() && s.record().snapshotId() == id)
                        .count()
                < parts) {
            Thread.sleep(20);
        }
    }
}
