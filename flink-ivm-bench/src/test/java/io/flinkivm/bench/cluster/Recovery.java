package io.flinkivm.bench.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Instant;
import java.util.Locale;

/**
 * How a job recovered from a process kill, from Flink's REST API: its restarts ({@code numRestarts}), when the
 * failure was noticed (the first entry of {@code /jobs/:id/exceptions} after the kill), which checkpoint it was
 * restored from and when ({@code /jobs/:id/checkpoints}, {@code latest.restored}: the JobManager assigns the
 * checkpoint's state to the new tasks), when all tasks ran again (seen by the test), and when the first checkpoint
 * after the restore completed. Times are milliseconds after the kill.
 *
 * @param restarts the job's restarts so far
 * @param noticedMillis the first failure recorded after the kill; -1 if none was recorded
 * @param restoredCheckpoint the checkpoint the job was restored from (last restore)
 * @param restoredMillis when that restore happened
 * @param runningMillis when the test saw every task RUNNING again after the restore; -1 if not observed
 * @param nextCheckpoint the first checkpoint completed after the restore
 * @param nextCheckpointMillis when it completed (its last acknowledgement)
 */
record Recovery(
        int restarts,
        long noticedMillis,
        long restoredCheckpoint,
        long restoredMillis,
        long runningMillis,
        long nextCheckpoint,
        long nextCheckpointMillis) {

    /** Reads the figures of {@code job}, killed at {@code kill}; the job must have completed a checkpoint since. */
    static Recovery of(FlinkRest rest, String job, Instant kill, Instant running) throws IOException {
        long k = kill.toEpochMilli();
        int restarts = restarts(rest, job);
        long noticed = -1;
        for (JsonNode e : rest.get("/jobs/" + job + "/exceptions")
                .path("exceptionHistory")
                .path("entries")) {
            long t = e.path("timestamp").asLong();
            if (t >= k && (noticed < 0 || t - k < noticed)) {
                noticed = t - k;
            }
        }
        JsonNode checkpoints = rest.get("/jobs/" + job + "/checkpoints");
        JsonNode restored = checkpoints.path("latest").path("restored");
        long restoredAt = restored.path("restore_timestamp").asLong();
        long next = -1;
        long nextAt = Long.MAX_VALUE;
        for (JsonNode c : checkpoints.path("history")) {
            if (c.path("status").asText().equals("COMPLETED")
                    && c.path("trigger_timestamp").asLong() >= restoredAt
                    && c.path("latest_ack_timestamp").asLong() < nextAt) {
                next = c.path("id").asLong();
                nextAt = c.path("latest_ack_timestamp").asLong();
            }
        }
        return new Recovery(
                restarts,
                noticed,
                restored.path("id").asLong(-1),
                restoredAt - k,
                running == null ? -1 : running.toEpochMilli() - k,
                next,
                next < 0 ? -1 : nextAt - k);
    }

    /** The job's {@code numRestarts} metric (the REST API refreshes metrics every second on the local cluster). */
    static int restarts(FlinkRest rest, String job) throws IOException {
        int restarts = 0;
        for (JsonNode m : rest.get("/jobs/" + job + "/metrics?get=numRestarts")) {
            restarts = m.path("value").asInt();
        }
        return restarts;
    }

    /**
     * Waits until {@code job} has restarted after {@code kill} (the REST API says so: a restart counted, a restore
     * after the kill) and every task runs again; returns when the test saw that.
     */
    static Instant awaitRunningAgain(FlinkRest rest, ClusterJobs jobs, String job, Instant kill)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
        while (restarts(rest, job) < 1
                || rest.get("/jobs/" + job + "/checkpoints")
                                .path("latest")
                                .path("restored")
                                .path("restore_timestamp")
                                .asLong()
                        < kill.toEpochMilli()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + job + " did not restart within 2 minutes of the kill");
            }
            Thread.sleep(100);
        }
        jobs.awaitAllTasksRunning(job, java.time.Duration.ofMinutes(2));
        return Instant.now();
    }

    /** The status of checkpoint {@code id} of {@code job} (COMPLETED, FAILED, IN_PROGRESS), or "unknown". */
    static String checkpointStatus(FlinkRest rest, String job, long id) throws IOException {
        for (JsonNode c : rest.get("/jobs/" + job + "/checkpoints").path("history")) {
            if (c.path("id").asLong() == id) {
                return c.path("status").asText();
            }
        }
        return "unknown";
    }

    /** One line for the test's output and the closing note. */
    String describe() {
        return String.format(Locale.ROOT, "restarts %d; ", restarts)
                + (noticedMillis < 0
                        ? ""
                        : String.format(Locale.ROOT, "failure noticed after %.1f s; ", noticedMillis / 1000.0))
                + String.format(
                        Locale.ROOT,
                        "restored from checkpoint %d after %.1f s; all tasks running after %.1f s; next checkpoint (%d)"
                                + " completed after %.1f s",
                        restoredCheckpoint,
                        restoredMillis / 1000.0,
                        runningMillis / 1000.0,
                        nextCheckpoint,
                        nextCheckpointMillis / 1000.0);
    }
}
