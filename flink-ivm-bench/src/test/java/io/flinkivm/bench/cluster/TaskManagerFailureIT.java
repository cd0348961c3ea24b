package io.flinkivm.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A TaskManager process killed with SIGKILL while the kafka command's Ex. 10 job runs on the cluster (RocksDB,
 * incremental checkpoints every second, 4 input partitions, parallelism 4 on two TaskManagers with two slots each,
 * exactly-once Kafka output), and a new TaskManager started, as a cluster manager would. The job restarts from its
 * last completed checkpoint; read with read_committed, the output holds every snapshot a run without failure writes,
 * each complete and once, each equal to the in-memory engine's result over the inserts it covers. Once with the kill
 * between checkpoints, once right after the JobManager triggered a checkpoint. The recovery figures (from the REST
 * API) are printed.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class TaskManagerFailureIT {

    @RegisterExtension
    static final LocalFlinkClusterExtension CLUSTER = LocalFlinkClusterExtension.shared();

    static final int PARTITIONS = 4;
    static final int PARALLELISM = 4;
    static final int INSERTS = 16_000;
    /** Per ingest subtask: a snapshot every 2,000 inserts of the stream. */
    static final int SNAPSHOT_EVERY = 500;

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void aTaskManagerKilledWhileInsertsStreamIn() throws Exception {
        killATaskManager("tm-kill", false);
    }

    @Test
    void aTaskManagerKilledRightAfterACheckpointWasTriggered() throws Exception {
        killATaskManager("tm-kill-checkpoint", true);
    }

    private void killATaskManager(String name, boolean duringCheckpoint) throws Exception {
        LocalFlinkCluster cluster = CLUSTER.cluster();
        ClusterJobs jobs = new ClusterJobs(cluster.rest());
        Ex10OnKafka ex10 = new Ex10OnKafka(KAFKA.kafka(), name, PARTITIONS, INSERTS, 11);
        LocalFlinkCluster.ClientRun run =
                CLUSTER.flink(ex10.flinkRun(List.of(), PARALLELISM, SNAPSHOT_EVERY, "--restart-attempts", "60")
                        .toArray(new String[0]));
        assertThat(run.exitCode()).as(run.output()).isZero();
        String job = ClusterJobs.jobId(run);
        jobs.awaitAllTasksRunning(job, Duration.ofMinutes(2));

        Ex10OnKafka.Producer producer = ex10.produce(0, INSERTS, 100 * PARTITIONS, Duration.ofMillis(150));
        producer.awaitProduced(INSERTS * 2 / 5);
        jobs.awaitCompletedCheckpoints(job, 2);
        LocalFlinkCluster.ClusterProcess victim = cluster.taskManagers().get(0);
        long triggered = -1;
        if (duringCheckpoint) {
            triggered =
                    awaitCheckpointTrigger(cluster.jobManager().orElseThrow().log(), job);
        }
        Instant killed = cluster.kill(victim);
        int producedAtKill = producer.produced();
        cluster.startTaskManager();
        Instant running = Recovery.awaitRunningAgain(cluster.rest(), jobs, job, killed);
        producer.join();
        producer.check();

        ex10.awaitSnapshot(INSERTS, Duration.ofMinutes(3));
        awaitCompletedCheckpointAfterRestore(cluster.rest(), job);
        Recovery recovery = Recovery.of(cluster.rest(), job, killed, running);
        String triggeredStatus = triggered < 0 ? "" : Recovery.checkpointStatus(cluster.rest(), job, triggered);
        jobs.cancel(job);

        List<Long> expectedIds = new ArrayList<>();
        for (long id = (long) SNAPSHOT_EVERY * PARALLELISM; id <= INSERTS; id += (long) SNAPSHOT_EVERY * PARALLELISM) {
            expectedIds.add(id);
        }
        assertThat(ex10.assertSnapshotsExact()).as("snapshot ids").containsExactlyElementsOf(expectedIds);
        assertThat(recovery.restarts()).as("restarts").isPositive();
        assertThat(recovery.restoredCheckpoint())
                .as("restored from a checkpoint")
                .isPositive();
        long[] restore = ClusterJobs.firstRestore(
                List.of(cluster.jobManager().orElseThrow().log()), job);
        assertThat(restore[0])
                .as("the first restore took the last checkpoint completed before it")
                .isEqualTo(restore[1]);
        assertThat(recovery.nextCheckpoint())
                .as("a checkpoint after the restore")
                .isGreaterThan(0);
        System.out.printf(
                "%s: killed %s (pid %d) after %,d of %,d inserts%s; %s%n",
                getClass().getSimpleName(),
                victim.name(),
                victim.pid(),
                producedAtKill,
                INSERTS,
                triggered < 0
                        ? ""
                        : ", checkpoint " + triggered + " triggered just before (then " + triggeredStatus + ")",
                recovery.describe());
        if (duringCheckpoint) {
            assertThat(triggeredStatus)
                    .as("the checkpoint the kill interrupted did not complete")
                    .isNotEqualTo("COMPLETED");
            assertThat(recovery.restoredCheckpoint()).isLessThan(triggered);
        }
    }

    /** Waits until a checkpoint triggered after the last restore has completed (the figures need one). */
    private static void awaitCompletedCheckpointAfterRestore(FlinkRest rest, String job)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (Recovery.of(rest, job, Instant.EPOCH, null).nextCheckpoint() < 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no checkpoint completed after the restore of job " + job);
            }
            Thread.sleep(200);
        }
    }

    /**
     * Follows the JobManager's log from its end and returns as soon as it says that it triggered a checkpoint of
     * {@code job}: the checkpoint's id.
     */
    private static long awaitCheckpointTrigger(Path log, String job) throws IOException, InterruptedException {
        Pattern trigger = Pattern.compile("Triggering checkpoint (\\d+) .* for job " + job);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            long position = f.length();
            StringBuilder pending = new StringBuilder();
            while (System.nanoTime() < deadline) {
                long length = f.length();
                if (length > position) {
                    byte[] bytes = new byte[(int) (length - position)];
                    f.seek(position);
                    f.readFully(bytes);
                    position = length;
                    pending.append(new String(bytes, StandardCharsets.UTF_8));
                    Matcher m = trigger.matcher(pending);
                    if (m.find()) {
                        return Long.parseLong(m.group(1));
                    }
                    int lastLine = pending.lastIndexOf("\n");
                    if (lastLine >= 0) {
                        pending.delete(0, lastLine + 1);
                    }
                }
                Thread.sleep(2);
            }
        }
        throw new AssertionError("the JobManager triggered no checkpoint of job " + job + " within a minute");
    }
}
