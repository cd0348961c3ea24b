package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.testing.Insert;
import io.flinkivm.core.testing.RandomStreams;
import io.flinkivm.core.testing.TestSemirings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
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
 * ({@code execution.state-recovery.path}) and continue: the snapshots of both jobs together are
 * those of an uninterrupted run, and the last one is the oracle's. The first job's source stops by
 * itself after {@link #STOP_AT} inserts (a rate limiter that waits for a checkpoint that never
 * comes), so the savepoint is taken at a known position, between two triggers: the operators with
 * several input channels hold the last inserts' deltas back in their state across the savepoint
 * (the sink in the first case; the root view and the sink, which have one in-order channel after
 * the restore, in the second). The same query also restores at its own parallelism, and a query
 * that is not p-hierarchical (the fallback operator) restores with the rest of the job rescaled.
 */
class SavepointRescaleITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    static final Semiring<Long> K = NaturalSemiring.INSTANCE;
    static final int INSERTS = 1200;
    static final int STOP_AT = 610;
    static final long SNAPSHOT_EVERY = 50;

    static Stream<Arguments> rescales() {
        return Stream.of(
                // Two trees; the sink is keyed by A and runs at the job's parallelism.
                Arguments.of("Q(A,C) :- R(A,B), S(A,B,D), T(A,C,E)", 1, 2),
                // One tree whose root view and the sink go from two subtasks to one.
                Arguments.of("Q(A) :- R(A,B), S(A,B,C)", 2, 1),
                // The first query again, at parallelism 2 before and after.
                Arguments.of("Q(A,C) :- R(A,B), S(A,B,D), T(A,C,E)", 2, 2),
                // Not p-hierarchical: the fallback operator (parallelism 1) in a job going from 2 to 1.
                Arguments.of("Q(A,C) :- R(A,B), S(B,C)", 2, 1));
    }

    @ParameterizedTest(name = "{0}: parallelism {1} -> {2}")
    @MethodSource("rescales")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void stopWithSavepointAndResume(String query, int before, int after, @TempDir Path dir)
            throws Exception {
        MaintenancePlan plan = Planner.plan(QueryParser.parse(query), K);
        List<Insert<Long>> stream = RandomStreams.generate(plan.query(), K, new Random(query.hashCode()), INSERTS,
                new RandomStreams.Domain(6, RandomStreams.ValueType.LONG), TestSemirings.payloads(K));
        String run = "savepoint " + query + " " + before + "->" + after;

        // The uninterrupted run.
        execute(plan, stream, before, RateLimiterStrategy.noOp(), null, run + " uninterrupted").getJobExecutionResult().get();
        TreeMap<Long, Map<Tuple, Long>> uninterrupted = Snapshots.byId(IvmTestJobs.ofAttempt(
                IvmTestJobs.seen(run + " uninterrupted"), 0), parts(plan, before));

        // The first job stops emitting after STOP_AT inserts; wait for its last snapshot, then stop it.
        JobClient first = execute(plan, stream, before, RateLimiterStrategy.perCheckpoint(STOP_AT), null, run + " first");
        long lastBefore = STOP_AT / SNAPSHOT_EVERY * SNAPSHOT_EVERY;
        waitForSnapshot(run + " first", lastBefore, parts(plan, before));
        String savepoint = first.stopWithSavepoint(false, dir.resolve("savepoints").toUri().toString(),
                SavepointFormatType.CANONICAL).get(60, TimeUnit.SECONDS);
        first.getJobExecutionResult().get();
        TreeMap<Long, Map<Tuple, Long>> firstSnapshots = Snapshots.byId(IvmTestJobs.ofAttempt(
                IvmTestJobs.seen(run + " first"), 0), parts(plan, before));

        // The second job restores the savepoint at the other parallelism and reads the rest.
        JobClient second = execute(plan, stream, after, RateLimiterStrategy.noOp(), savepoint, run + " second");
        assertThat(second.getJobExecutionResult().get().getJobExecutionResult()).isNotNull();
        assertThat(second.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);
        TreeMap<Long, Map<Tuple, Long>> secondSnapshots = Snapshots.byId(IvmTestJobs.ofAttempt(
                IvmTestJobs.seen(run + " second"), 0), parts(plan, after));

        Set<Long> ids = new TreeSet<>();
        for (long n = SNAPSHOT_EVERY; n <= INSERTS; n += SNAPSHOT_EVERY) {
            ids.add(n);
        }
        assertThat(uninterrupted.keySet()).isEqualTo(ids);
        assertThat(uninterrupted).isEqualTo(IvmTestJobs.coreSnapshots(plan, K, stream, ids));
        assertThat(uninterrupted.get((long) INSERTS)).isEqualTo(IvmTestJobs.oracle(plan, K, stream)).isNotEmpty();

        assertThat(firstSnapshots.lastKey()).as("the first job stopped in the middle").isEqualTo(lastBefore);
        assertThat(secondSnapshots.firstKey()).as("the second job resumed where the first stopped")
                .isEqualTo(lastBefore + SNAPSHOT_EVERY);
        TreeMap<Long, Map<Tuple, Long>> both = new TreeMap<>(firstSnapshots);
        both.putAll(secondSnapshots);
        assertThat(both).isEqualTo(uninterrupted);
    }

    private static JobClient execute(MaintenancePlan plan, List<Insert<Long>> stream, int parallelism,
            RateLimiterStrategy rate, String savepoint, String run) throws Exception {
        Configuration c = new Configuration();
        c.setString("state.backend.type", "rocksdb");
        c.setString("pipeline.generic-types", "false");
        c.setString("parallelism.default", String.valueOf(parallelism));
        c.setString("restart-strategy.type", "none");
        if (savepoint != null) {
            c.setString("execution.state-recovery.path", savepoint);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
        IvmJob<Long> job = FlinkIvm.maintain(
                IvmTestJobs.source(env, IvmTestJobs.records(stream), FlinkIvm.inputType(K), rate), plan, K,
                IvmOptions.defaults().withSnapshotEvery(SNAPSHOT_EVERY).withSinkParallelism(parallelism));
        IvmTestJobs.record(job.results(), run);
        return env.executeAsync(run);
    }

    /** Sink subtasks (parts per snapshot): the parallelism when the sink is keyed, else 1. */
    private static int parts(MaintenancePlan plan, int parallelism) {
        return FlinkIvmITCase.sinkParts(plan, parallelism);
    }

    private static void waitForSnapshot(String run, long id, int parts) throws InterruptedException {
        while (IvmTestJobs.SEEN.get(run).stream()
                .filter(s -> s.record().isEnd() && s.record().snapshotId() == id).count() < parts) {
            Thread.sleep(20);
        }
    }
}
