package io.flinkivm.bench.state;

import com.fasterxml.jackson.databind.JsonNode;
import io.flinkivm.bench.cluster.FlinkRest;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;

/**
 * A job's checkpoints and tasks as Flink's REST API reports them (what the web UI shows): a completed
 * checkpoint's full and written size per task ({@code GET /jobs/:jobid/checkpoints/details/:id}), and
 * when each subtask of a task reached each state ({@code GET /jobs/:jobid/vertices/:vertexid/subtasktimes}).
 */
public final class CheckpointStats {
    private final FlinkRest rest;

    /**
     * One task (a chain of operators) in a checkpoint, summed over its subtasks.
     *
     * @param stateBytes the full size of its state
     * @param checkpointedBytes the bytes this checkpoint wrote for it (less than the full size when incremental)
     */
    public record Task(String name, int parallelism, long stateBytes, long checkpointedBytes) {}

    /**
     * A completed checkpoint.
     *
     * @param durationMillis trigger to the last acknowledgement
     * @param stateBytes the full size of the state it refers to
     * @param checkpointedBytes the bytes it wrote
     * @param tasks its tasks, in the job's order
     * @param externalPath where it is, for a restore; null if Flink does not say
     */
    public record Checkpoint(
            long id,
            long durationMillis,
            long stateBytes,
            long checkpointedBytes,
            List<Task> tasks,
            String externalPath) {}

    /** @param restBase e.g. {@code http://127.0.0.1:8081} */
    public CheckpointStats(String restBase) {
        this.rest = new FlinkRest(URI.create(restBase));
    }

    /**
     * Triggers a checkpoint of {@code job} ({@code POST /jobs/:jobid/checkpoints}, of the configured
     * kind: incremental where configured so) and returns its id once Flink has started it.
     */
    public long trigger(JobID job, Duration patience) throws IOException {
        String trigger;
        try {
            trigger = rest.post("/jobs/" + job + "/checkpoints", "{\"checkpointType\":\"CONFIGURED\"}")
                    .path("request-id")
                    .asText();
        } catch (IOException e) {
            throw new IOException("cannot trigger a checkpoint of " + job + ": " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            JsonNode status = rest.get("/jobs/" + job + "/checkpoints/" + trigger);
            if ("COMPLETED".equals(status.path("status").path("id").asText())) {
                JsonNode op = status.path("operation");
                if (op.has("failure-cause")) {
                    throw new IOException("the checkpoint of " + job + " failed: " + op.path("failure-cause"));
                }
                return op.path("checkpointId").asLong();
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the checkpoint of " + job + " was not done within " + patience);
            }
            sleep(20);
        }
    }

    /**
     * Where the latest completed checkpoint (not a savepoint) of {@code job} is, or null if none: after
     * a cancellation with retained checkpoints, the one that a restore would use.
     */
    public String latestCompletedPath(JobID job) throws IOException {
        JsonNode latest =
                rest.get("/jobs/" + job + "/checkpoints").path("latest").path("completed");
        return latest.hasNonNull("external_path") ? latest.path("external_path").asText() : null;
    }

    /** The id of the latest completed checkpoint (not a savepoint), or -1 if none. */
    public long latestCompleted(JobID job) throws IOException {
        JsonNode latest =
                rest.get("/jobs/" + job + "/checkpoints").path("latest").path("completed");
        return latest.isMissingNode() || latest.isNull()
                ? -1
                : latest.path("id").asLong(-1);
    }

    /**
     * Checkpoint {@code id} of {@code job}, once Flink reports it completed; waits up to
     * {@code patience} for its statistics.
     *
     * @throws IOException if it did not complete in time or the REST API does not answer
     */
    public Checkpoint completed(JobID job, long id, Duration patience) throws IOException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            JsonNode c = rest.getIfPresent("/jobs/" + job + "/checkpoints/details/" + id);
            if (c != null && "COMPLETED".equals(c.path("status").asText())) {
                return checkpoint(job, c);
            }
            if (c != null && "FAILED".equals(c.path("status").asText())) {
                throw new IOException("checkpoint " + id + " failed: "
                        + c.path("failure_message").asText());
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("checkpoint " + id + " of job " + job + " did not complete within " + patience);
            }
            sleep(50);
        }
    }

    private Checkpoint checkpoint(JobID job, JsonNode c) throws IOException {
        Map<String, JsonNode> vertices = new HashMap<>();
        List<String> order = new ArrayList<>();
        for (JsonNode v : rest.get("/jobs/" + job).path("vertices")) {
            vertices.put(v.path("id").asText(), v);
            order.add(v.path("id").asText());
        }
        List<Task> tasks = new ArrayList<>();
        JsonNode stats = c.path("tasks");
        for (String id : order) {
            JsonNode t = stats.path(id);
            JsonNode v = vertices.get(id);
            tasks.add(new Task(
                    v.path("name").asText(),
                    v.path("parallelism").asInt(),
                    t.path("state_size").asLong(0),
                    t.path("checkpointed_size").asLong(0)));
        }
        return new Checkpoint(
                c.path("id").asLong(),
                c.path("end_to_end_duration").asLong(),
                c.path("state_size").asLong(),
                c.path("checkpointed_size").asLong(),
                List.copyOf(tasks),
                c.hasNonNull("external_path") ? c.path("external_path").asText() : null);
    }

    /**
     * Per task of {@code job}: the time from the first subtask that started initializing (restoring its
     * state) to the last that was running, in milliseconds; a task whose subtasks have not all reached
     * RUNNING yet is absent.
     */
    public Map<String, Long> initializationMillis(JobID job) throws IOException {
        Map<String, Long> out = new java.util.LinkedHashMap<>();
        for (JsonNode v : rest.get("/jobs/" + job).path("vertices")) {
            JsonNode times =
                    rest.get("/jobs/" + job + "/vertices/" + v.path("id").asText() + "/subtasktimes");
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            boolean all = true;
            for (JsonNode s : times.path("subtasks")) {
                JsonNode ts = s.path("timestamps");
                long init = ts.path("INITIALIZING").asLong(0);
                long running = ts.path("RUNNING").asLong(0);
                if (init <= 0 || running <= 0) {
                    all = false;
                    continue;
                }
                first = Math.min(first, init);
                last = Math.max(last, running);
            }
            if (all && last >= first) {
                out.put(v.path("name").asText(), last - first);
            }
        }
        return out;
    }

    /** The job's tasks' names, in the job's order. */
    public List<String> taskNames(JobID job) throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode v : rest.get("/jobs/" + job).path("vertices")) {
            out.add(v.path("name").asText());
        }
        return out;
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
