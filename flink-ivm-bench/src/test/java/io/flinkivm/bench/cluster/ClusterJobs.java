package io.flinkivm.bench.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** What the cluster tests ask of a job through Flink's REST API, and of what a job or the client left behind. */
final class ClusterJobs {
    private static final Pattern SUBMITTED = Pattern.compile("Job has been submitted with JobID ([0-9a-f]{32})");

    private final FlinkRest rest;

    ClusterJobs(FlinkRest rest) {
        this.rest = rest;
    }

    /** The job id that {@code flink run} printed. */
    static String jobId(LocalFlinkCluster.ClientRun run) {
        Matcher m = SUBMITTED.matcher(run.output());
        if (!m.find()) {
            throw new AssertionError(
                    "flink run printed no job id (exit code " + run.exitCode() + "):\n" + run.output());
        }
        return m.group(1);
    }

    /** The job's state, e.g. RUNNING. */
    String state(String job) throws IOException {
        return rest.get("/jobs/" + job).path("state").asText();
    }

    /** Waits until the job is in one of {@code states}; fails early if it reaches a terminal state that is not asked for. */
    String awaitState(String job, Set<String> states, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String state = "";
        while (System.nanoTime() < deadline) {
            state = state(job);
            if (states.contains(state)) {
                return state;
            }
            if (Set.of("FAILED", "CANCELED", "FINISHED").contains(state)) {
                throw new AssertionError("job " + job + " is " + state + ", expected " + states + "; exceptions: "
                        + rest.get("/jobs/" + job + "/exceptions").path("exceptionHistory"));
            }
            Thread.sleep(200);
        }
        throw new AssertionError("job " + job + " is " + state + " after " + timeout + ", expected " + states);
    }

    /** Waits until the job runs and every one of its tasks is RUNNING (not only scheduled or deploying). */
    void awaitAllTasksRunning(String job, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode j = rest.get("/jobs/" + job);
            boolean all = j.path("state").asText().equals("RUNNING");
            for (JsonNode v : j.path("vertices")) {
                all &= v.path("tasks").path("RUNNING").asInt()
                        == v.path("parallelism").asInt();
            }
            if (all) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "the tasks of job " + job + " are not all RUNNING after " + timeout + ": " + j);
            }
            Thread.sleep(200);
        }
    }

    /** Waits until the job has completed {@code n} checkpoints. */
    void awaitCompletedCheckpoints(String job, int n) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (rest.get("/jobs/" + job + "/checkpoints")
                        .path("counts")
                        .path("completed")
                        .asInt()
                < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + job + " completed fewer than " + n + " checkpoints in 2 minutes");
            }
            Thread.sleep(100);
        }
    }

    /** The job's user accumulators, by name (values as Flink prints them). */
    Map<String, String> accumulators(String job) throws IOException {
        Map<String, String> out = new HashMap<>();
        for (JsonNode a : rest.get("/jobs/" + job + "/accumulators").path("user-task-accumulators")) {
            out.put(a.path("name").asText(), a.path("value").asText());
        }
        return out;
    }

    /** Cancels the job and waits until it is CANCELED. */
    void cancel(String job) throws IOException, InterruptedException {
        rest.patch("/jobs/" + job + "?mode=cancel");
        awaitState(job, Set.of("CANCELED"), Duration.ofMinutes(1));
    }

    /**
     * From the JobManagers' logs, in the order the JobManagers ran: the checkpoint the first restore of {@code job}
     * restored (a "Restoring job ... from Checkpoint N" line), and the last checkpoint of the job that had
     * completed before it ("Completed checkpoint N for job ..."). A job restarts from its last completed
     * checkpoint when the two are equal.
     *
     * @return {restored, last completed before}
     */
    static long[] firstRestore(List<Path> logs, String job) throws IOException {
        Pattern completed = Pattern.compile("Completed checkpoint (\\d+) for job " + job);
        Pattern restoring = Pattern.compile("Restoring job " + job + " from Checkpoint (\\d+)");
        long last = -1;
        for (Path log : logs) {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                Matcher c = completed.matcher(line);
                if (c.find()) {
                    last = Math.max(last, Long.parseLong(c.group(1)));
                }
                Matcher r = restoring.matcher(line);
                if (r.find()) {
                    return new long[] {Long.parseLong(r.group(1)), last};
                }
            }
        }
        throw new AssertionError("no JobManager log " + logs + " says that job " + job + " was restored");
    }

    /** The lines of every finished part file in {@code dir} (in-progress files start with a dot and are skipped). */
    static List<String> partFileLines(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                if (f.getFileName().toString().startsWith("part-")) {
                    out.addAll(Files.readAllLines(f, StandardCharsets.UTF_8));
                }
            }
        }
        return out;
    }
}
