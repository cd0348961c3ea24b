package io.flinkivm.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Rescaling on the cluster as a user does it: the kafka command's Ex. 10 job at parallelism 2 is stopped with a
 * savepoint ({@code flink stop}), resumed from it at parallelism 4 ({@code flink run -s}), stopped again and
 * resumed at parallelism 1, with more inserts before each resume. Read with read_committed, every snapshot of the
 * three jobs is there once and complete, and equals the in-memory engine's result over the inserts it covers.
 * The input topic has one partition: its records are dealt round robin to the ingest subtasks, so that a
 * snapshot covers a prefix of the stream at every parallelism.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class RescaleIT {

    @RegisterExtension
    static final LocalFlinkClusterExtension CLUSTER = LocalFlinkClusterExtension.shared();

    static final int PHASE = 6_000;
    static final int SNAPSHOT_EVERY = 250;
    private static final Pattern SAVEPOINT = Pattern.compile("Savepoint completed\\. Path: (\\S+)");

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    @Test
    void stopWithSavepointAtTwoResumeAtFourThenAtOne() throws Exception {
        ClusterJobs jobs = new ClusterJobs(CLUSTER.cluster().rest());
        Ex10OnKafka ex10 = new Ex10OnKafka(KAFKA.kafka(), "rescale", 1, 3 * PHASE, 13);
        ex10.produceAll(0, PHASE);

        String job = submit(ex10, jobs, List.of(), 2);
        ex10.awaitSnapshot(PHASE, Duration.ofMinutes(2));
        String savepoint = stop(job);

        ex10.produceAll(PHASE, 2 * PHASE);
        job = submit(ex10, jobs, List.of("-s", savepoint), 4);
        ex10.awaitSnapshot(2 * PHASE, Duration.ofMinutes(2));
        savepoint = stop(job);

        ex10.produceAll(2 * PHASE, 3 * PHASE);
        job = submit(ex10, jobs, List.of("-s", savepoint), 1);
        ex10.awaitSnapshot(3 * PHASE, Duration.ofMinutes(2));
        jobs.cancel(job);

        List<Long> expected = new ArrayList<>();
        for (long id = 2 * SNAPSHOT_EVERY; id <= PHASE; id += 2 * SNAPSHOT_EVERY) {
            expected.add(id);
        }
        for (long id = PHASE + 4 * SNAPSHOT_EVERY; id <= 2 * PHASE; id += 4 * SNAPSHOT_EVERY) {
            expected.add(id);
        }
        for (long id = 2 * PHASE + SNAPSHOT_EVERY; id <= 3 * PHASE; id += SNAPSHOT_EVERY) {
            expected.add(id);
        }
        assertThat(ex10.assertSnapshotsExact()).as("snapshot ids").containsExactlyElementsOf(expected);
    }

    /** Submits the job at {@code parallelism} and checks that it runs at it. */
    private String submit(Ex10OnKafka ex10, ClusterJobs jobs, List<String> clientOptions, int parallelism)
            throws Exception {
        LocalFlinkCluster.ClientRun run = CLUSTER.flink(
                ex10.flinkRun(clientOptions, parallelism, SNAPSHOT_EVERY).toArray(new String[0]));
        assertThat(run.exitCode()).as(run.output()).isZero();
        String job = ClusterJobs.jobId(run);
        jobs.awaitAllTasksRunning(job, Duration.ofMinutes(2));
        int max = 0;
        for (JsonNode v : CLUSTER.cluster().rest().get("/jobs/" + job).path("vertices")) {
            max = Math.max(max, v.path("parallelism").asInt());
        }
        assertThat(max).as("the job's parallelism").isEqualTo(parallelism);
        return job;
    }

    /** {@code flink stop JOB}: stop with a savepoint (to the cluster's savepoint directory); returns its path. */
    private String stop(String job) throws Exception {
        LocalFlinkCluster.ClientRun run = CLUSTER.flink("stop", job);
        assertThat(run.exitCode()).as(run.output()).isZero();
        Matcher m = SAVEPOINT.matcher(run.output());
        assertThat(m.find())
                .as("flink stop printed the savepoint's path:%n%s", run.output())
                .isTrue();
        new ClusterJobs(CLUSTER.cluster().rest()).awaitState(job, java.util.Set.of("FINISHED"), Duration.ofMinutes(1));
        return m.group(1);
    }
}
