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
import io.flinkivm.flink.IvmTestJobs.Emitted;
import io.flinkivm.flink.IvmTestJobs.Fault;
import io.flinkivm.flink.IvmTestJobs.FaultKind;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly-once on a MiniCluster: RocksDB with incremental checkpoints every 100 ms, a throttled
 * replayable source in two partitions, and failures injected between the source and flink-ivm.
 * Every snapshot of a run with failures equals the same snapshot of a run without, and the core
 * engine's result over the inserts its cut claims; the last one equals the naive oracle's.
 * Snapshots that are emitted again after a restore have the same rows as the first time.
 */
class ExactlyOnceITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());

    /** Two trees, V[A] (a join at B) and V[A,C]; the sink is keyed by A and runs in parallel. */
    static final String QUERY = "Q(A,C) :- R(A,B), S(A,B,D), T(A,C,E)";

    static final Semiring<Long> K = NaturalSemiring.INSTANCE;
    static final MaintenancePlan PLAN = Planner.plan(QueryParser.parse(QUERY), K);
    static final int INSERTS = 1500;
    static final long SNAPSHOT_EVERY = 25;
    static final int PARALLELISM = 2;
    /**
     * At most 200 inserts per completed checkpoint: checkpoints happen mid-stream however slow the
     * machine is, and a failure after more than 200 records always restores from a checkpoint.
     */
    static final RateLimiterStrategy PER_CHECKPOINT = RateLimiterStrategy.perCheckpoint(200);

    static List<Insert<Long>> stream;
    static IvmTestJobs.Partitioned<Long> input;
    static TreeMap<Long, Map<Tuple, Long>> reference;

    @BeforeAll
    static void referenceRun(@TempDir Path checkpoints) throws Exception {
        stream = RandomStreams.generate(
                PLAN.query(),
                K,
                new Random(42),
                INSERTS,
                new RandomStreams.Domain(8, RandomStreams.ValueType.LONG),
                TestSemirings.payloads(K));
        input = IvmTestJobs.Partitioned.roundRobin(stream, PARALLELISM);
        List<ResultRecord<Long>> records = run("reference", checkpoints, RateLimiterStrategy.noOp(), List.of());
        reference = Snapshots.byId(records, PARALLELISM);
        assertThat(reference.keySet())
                .hasSizeGreaterThanOrEqualTo(INSERTS / (int) SNAPSHOT_EVERY / PARALLELISM)
                .contains((long) INSERTS);
        assertThat(reference).isEqualTo(IvmTestJobs.overCuts(PLAN, K, input, Snapshots.cuts(records)));
        assertThat(reference.get((long) INSERTS))
                .as("final snapshot vs the oracle")
                .isEqualTo(IvmTestJobs.oracle(PLAN, K, stream))
                .isNotEmpty();
    }

    /** Runs the job and returns what the (exactly-once) collect sink delivered. */
    static List<ResultRecord<Long>> run(String name, Path checkpoints, RateLimiterStrategy<?> rate, List<Fault> faults)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                IvmTestJobs.checkpointed("rocksdb", PARALLELISM, checkpoints));
        DataStream<InputRecord<Long>> inserts = IvmTestJobs.source(env, input, FlinkIvm.inputType(K), rate);
        if (!faults.isEmpty()) {
            inserts = IvmTestJobs.injectFaults(inserts, name, faults);
        }
        IvmJob<Long> job =
                FlinkIvm.maintain(inserts, PLAN, K, IvmOptions.defaults().withSnapshotEvery(SNAPSHOT_EVERY));
        IvmTestJobs.record(job.results(), name, faults, PARALLELISM);
        List<ResultRecord<Long>> collected = new ArrayList<>();
        try (CloseableIterator<ResultRecord<Long>> it = job.results().executeAndCollect(name)) {
            it.forEachRemaining(collected::add);
        }
        return collected;
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void oneFailureMidStreamChangesNoSnapshot(@TempDir Path checkpoints) throws Exception {
        TreeMap<Long, Map<Tuple, Long>> snapshots = Snapshots.byId(
                run("one-failure", checkpoints, PER_CHECKPOINT, List.of(new Fault(FaultKind.AT_RECORD, true, 325))),
                PARALLELISM);
        assertThat(IvmTestJobs.FAILURES.get("one-failure")).hasSize(1);
        assertThat(snapshots).isEqualTo(reference);
        checkReEmittedSnapshots("one-failure", 1);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void failuresInThreeSuccessiveAttemptsChangeNoSnapshot(@TempDir Path checkpoints) throws Exception {
        TreeMap<Long, Map<Tuple, Long>> snapshots = Snapshots.byId(
                run(
                        "three-failures",
                        checkpoints,
                        PER_CHECKPOINT,
                        List.of(
                                new Fault(FaultKind.AT_RECORD, true, 225),
                                new Fault(FaultKind.AFTER_SNAPSHOT, false, 3),
                                new Fault(FaultKind.AT_RECORD, true, 130))),
                PARALLELISM);
        assertThat(IvmTestJobs.FAILURES.get("three-failures")).hasSize(3);
        assertThat(snapshots).isEqualTo(reference);
        // The failure right after a snapshot restores from a checkpoint before it: the snapshot comes again.
        assertThat(checkReEmittedSnapshots("three-failures", 3))
                .as("snapshots emitted completely by two attempts")
                .isPositive();
    }

    /**
     * In the raw (at-least-once) stream of all attempts, every snapshot that an attempt emitted
     * completely equals the reference, and a snapshot an attempt was cut off in has only reference
     * rows. Returns how many snapshots were emitted completely by more than one attempt.
     */
    private static int checkReEmittedSnapshots(String run, int failures) {
        Emitted emitted = IvmTestJobs.checkEmittedSnapshots(run, reference, PARALLELISM);
        assertThat(emitted.attempts()).as("attempts of the recorder").hasSize(failures + 1);
        return emitted.reEmitted();
    }
}
