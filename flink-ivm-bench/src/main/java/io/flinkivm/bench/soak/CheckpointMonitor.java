package io.flinkivm.bench.soak;

import com.fasterxml.jackson.databind.JsonNode;
import io.flinkivm.bench.cluster.FlinkRest;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobID;

/**
 * Polls a running job's checkpoint statistics from Flink's REST API
 * ({@code GET /jobs/:jobid/checkpoints}, the figures the web UI shows) on a background thread and keeps
 * every completed checkpoint it has seen. A job's statistics vanish with its cluster, so the checkpoints
 * of the last poll interval before the end may be missing.
 */
final class CheckpointMonitor implements AutoCloseable {

    private final FlinkRest rest;
    private final String path;
    private final Duration every;
    private final TreeMap<Long, SoakReport.Checkpoint> completed = new TreeMap<>();
    private final Thread thread;
    private long failed;
    private String lastError;
    private String lastFailure;
    private final TreeMap<Long, String> failures = new TreeMap<>();
    private static final Pattern TASK_ID = Pattern.compile("[0-9a-f]{32}(_[0-9a-f]{32})?(_\\d+)*");
    private volatile boolean stopped;

    /** @param restBase e.g. {@code http://127.0.0.1:8081} */
    CheckpointMonitor(String restBase, JobID job, Duration every) {
        this.rest = new FlinkRest(URI.create(restBase));
        this.path = "/jobs/" + job + "/checkpoints";
        this.every = every;
        this.thread = new Thread(this::loop, "flink-ivm soak checkpoint monitor");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Every completed checkpoint seen so far, by id. */
    synchronized List<SoakReport.Checkpoint> completed() {
        return new ArrayList<>(completed.values());
    }

    /** The failed checkpoints Flink counted at the last successful poll. */
    synchronized long failed() {
        return failed;
    }

    /** How many failed checkpoints gave each reason (task ids elided), most frequent first. */
    synchronized Map<String, Long> failureReasons() {
        Map<String, Long> counts = new HashMap<>();
        failures.values().forEach(m -> counts.merge(m, 1L, Long::sum));
        Map<String, Long> sorted = new LinkedHashMap<>();
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** Why the latest failed checkpoint failed, as Flink says, or null. */
    synchronized String lastFailure() {
        return lastFailure;
    }

    /** Why the last poll failed, or null. */
    synchronized String lastError() {
        return lastError;
    }

    /** Polls once more (while the job's cluster still answers), then stops. */
    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One poll; false if the REST API did not answer with statistics. */
    boolean poll() {
        try {
            record(rest.get(path));
            return true;
        } catch (IOException e) {
            remember(e.toString());
            return false;
        }
    }

    private synchronized void remember(String error) {
        lastError = error;
    }

    private synchronized void record(JsonNode root) {
        lastError = null;
        failed = root.path("counts").path("failed").asLong(failed);
        for (JsonNode c : root.path("history")) {
            if ("FAILED".equals(c.path("status").asText())) {
                lastFailure = c.path("failure_message").asText(null);
                failures.put(
                        c.path("id").asLong(),
                        lastFailure == null
                                ? "(no message)"
                                : TASK_ID.matcher(lastFailure).replaceAll("<task>"));
            }
            if (!"COMPLETED".equals(c.path("status").asText())
                    || c.path("is_savepoint").asBoolean(false)) {
                continue;
            }
            long id = c.path("id").asLong();
            completed.put(
                    id,
                    new SoakReport.Checkpoint(
                            id,
                            c.path("trigger_timestamp").asLong(),
                            c.path("end_to_end_duration").asLong(),
                            c.path("state_size").asLong(),
                            c.path("checkpointed_size").asLong()));
        }
    }

    private void loop() {
        while (!stopped) {
            poll();
            try {
                Thread.sleep(every.toMillis());
            } catch (InterruptedException e) {
                break;
            }
        }
        poll();
    }
}
