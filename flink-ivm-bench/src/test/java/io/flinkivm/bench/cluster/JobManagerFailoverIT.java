package io.flinkivm.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The JobManager killed with SIGKILL while the kafka command's Ex. 10 job runs, and a new one started. Flink 2.2
 * has two kinds of high availability, ZooKeeper and Kubernetes (none on a file system alone): the cluster runs with
 * ZooKeeper (a server in the test JVM) for leader election and the pointers to jobs and checkpoints, and a
 * directory on the local disk for their contents ({@code high-availability.storageDir}). The new JobManager
 * becomes leader once the dead one's ZooKeeper session has expired, recovers the job from its last completed
 * checkpoint, and the TaskManagers, still alive, run it again. Read with read_committed, every snapshot is there
 * once, complete, and equal to the in-memory engine's result over the inserts it covers.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class JobManagerFailoverIT {

    @RegisterExtension
    @Order(1)
    static final ZooKeeperExtension ZOOKEEPER = new ZooKeeperExtension();

    static final String NAME = "jobmanager-failover";

    @RegisterExtension
    @Order(2)
    static final LocalFlinkClusterExtension CLUSTER = LocalFlinkClusterExtension.dedicated(
            NAME,
            Map.of(
                    "high-availability.type",
                    "zookeeper",
                    "high-availability.zookeeper.quorum",
                    ZOOKEEPER.quorum(),
                    "high-availability.cluster-id",
                    "/" + NAME,
                    "high-availability.storageDir",
                    Path.of(System.getProperty("flinkivm.localClusters", "target/local-clusters"), NAME + "-ha")
                            .toAbsolutePath()
                            .toUri()
                            .toString(),
                    // A dead JobManager's leadership ends with its ZooKeeper session: after 6 s, not 60 s.
                    "high-availability.zookeeper.client.session-timeout",
                    "6 s"));

    static final int PARTITIONS = 4;
    static final int PARALLELISM = 4;
    static final int INSERTS = 12_000;
    static final int SNAPSHOT_EVERY = 500;

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void aNewJobManagerRecoversTheJobFromItsLastCheckpoint() throws Exception {
        LocalFlinkCluster cluster = CLUSTER.cluster();
        ClusterJobs jobs = new ClusterJobs(cluster.rest());
        Ex10OnKafka ex10 = new Ex10OnKafka(KAFKA.kafka(), "jm-failover", PARTITIONS, INSERTS, 17);
        LocalFlinkCluster.ClientRun run = CLUSTER.flink(
                ex10.flinkRun(List.of(), PARALLELISM, SNAPSHOT_EVERY).toArray(new String[0]));
        assertThat(run.exitCode()).as(run.output()).isZero();
        String job = ClusterJobs.jobId(run);
        jobs.awaitAllTasksRunning(job, Duration.ofMinutes(2));

        Ex10OnKafka.Producer producer = ex10.produce(0, INSERTS, 100 * PARTITIONS, Duration.ofMillis(150));
        producer.awaitProduced(INSERTS * 2 / 5);
        jobs.awaitCompletedCheckpoints(job, 2);
        LocalFlinkCluster.ClusterProcess old = cluster.jobManager().orElseThrow();
        Instant killed = cluster.kill(old);
        int producedAtKill = producer.produced();
        cluster.startJobManager();
        Instant[] answered = new Instant[1];
        Instant running = awaitRecovered(cluster.rest(), jobs, job, killed, answered);
        producer.join();
        producer.check();

        ex10.awaitSnapshot(INSERTS, Duration.ofMinutes(3));
        Recovery recovery = Recovery.of(cluster.rest(), job, killed, running);
        jobs.cancel(job);

        List<Long> expectedIds = new ArrayList<>();
        for (long id = (long) SNAPSHOT_EVERY * PARALLELISM; id <= INSERTS; id += (long) SNAPSHOT_EVERY * PARALLELISM) {
            expectedIds.add(id);
        }
        assertThat(ex10.assertSnapshotsExact()).as("snapshot ids").containsExactlyElementsOf(expectedIds);
        assertThat(recovery.restoredCheckpoint())
                .as("restored from a checkpoint")
                .isPositive();
        long[] restore = ClusterJobs.firstRestore(
                List.of(old.log(), cluster.jobManager().orElseThrow().log()), job);
        assertThat(restore[0])
                .as("the JobManager's log names the checkpoint the REST API says it restored")
                .isEqualTo(recovery.restoredCheckpoint());
        // Not older than the last checkpoint the old JobManager logged as completed. It can be newer: the old
        // one may have added a checkpoint to the HA store and been killed before it logged the completion.
        assertThat(restore[0])
                .as("the new JobManager restored the last checkpoint the old one completed")
                .isGreaterThanOrEqualTo(restore[1]);
        assertThat(cluster.taskManagers())
                .as("the TaskManagers lived on")
                .hasSize(LocalFlinkClusterExtension.TASK_MANAGERS);
        System.out.printf(
                "%s: killed the JobManager (pid %d) after %,d of %,d inserts; the new one answered for the job after"
                        + " %.1f s; %s%n",
                getClass().getSimpleName(),
                old.pid(),
                producedAtKill,
                INSERTS,
                Duration.between(killed, answered[0]).toMillis() / 1000.0,
                recovery.describe());
    }

    /**
     * Waits until the new JobManager answers for the job (it became leader and recovered it; {@code answered[0]}
     * is when the test first saw that), the job restored a checkpoint and all its tasks run; returns when the test
     * saw that.
     */
    private static Instant awaitRecovered(
            FlinkRest rest, ClusterJobs jobs, String job, Instant killed, Instant[] answered) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (true) {
            try {
                String state = jobs.state(job);
                if (answered[0] == null) {
                    answered[0] = Instant.now();
                }
                if (state.equals("RUNNING")
                        && rest.get("/jobs/" + job + "/checkpoints")
                                        .path("latest")
                                        .path("restored")
                                        .path("restore_timestamp")
                                        .asLong()
                                > killed.toEpochMilli()) {
                    break;
                }
            } catch (java.io.IOException e) {
                // No leader yet: the REST API is down or answers that it does not know the job.
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no JobManager recovered job " + job + " within 2 minutes");
            }
            Thread.sleep(200);
        }
        jobs.awaitAllTasksRunning(job, Duration.ofMinutes(2));
        return Instant.now();
    }
}
