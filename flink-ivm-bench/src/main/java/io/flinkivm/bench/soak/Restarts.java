package io.flinkivm.bench.soak;

import io.flinkivm.bench.cluster.LocalFlinkCluster;
import io.flinkivm.bench.state.CheckpointStats;
import io.flinkivm.bench.state.EndGate;
import io.flinkivm.bench.state.StateReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * Restores a soak's state into a new job and times it: the same job graph started from a savepoint or
 * a retained checkpoint ({@code execution.state-recovery.path}) on a new embedded Flink, timed by
 * Flink's own task timestamps from Flink's REST API: per task, from the first subtask that started
 * INITIALIZING (restoring its state) to the last that was RUNNING. The restored job is cancelled as
 * soon as all of its tasks run.
 */
final class Restarts {
    /** How long a restore may take before it is reported as not done. */
    static final Duration PATIENCE = Duration.ofMinutes(10);

    private Restarts() {}

    /**
     * One measured restore.
     *
     * @param what what was restored, for the report
     * @param path the savepoint or checkpoint
     * @param inserts the inserts the restored state reflects (about)
     * @param stateBytes the bytes of the savepoint or checkpoint directory's files (for an incremental
     *     checkpoint: its own and the shared files it refers to)
     * @param millis the slowest task's INITIALIZING to RUNNING, or -1 if the restore failed
     * @param slowestTask the slowest task's name
     * @param tasks each task's INITIALIZING to RUNNING in milliseconds
     * @param failure why the restore failed, or null
     */
    record Restart(
            String what,
            String path,
            long inserts,
            long stateBytes,
            long millis,
            String slowestTask,
            Map<String, Long> tasks,
            String failure) {}

    /**
     * Starts the job {@code build} makes from {@code path} with configuration {@code base} (a new REST
     * port and end gate), waits until every task runs, and cancels it.
     */
    static Restart measure(
            String what,
            String path,
            long inserts,
            long stateBytes,
            Configuration base,
            Function<StreamExecutionEnvironment, CloseableIterator<?>> build)
            throws Exception {
        Configuration c = new Configuration(base);
        int port = LocalFlinkCluster.freePort();
        c.set(RestOptions.BIND_PORT, Integer.toString(port));
        c.set(RestOptions.PORT, port);
        c.set(StateRecoveryOptions.SAVEPOINT_PATH, path);
        // The restored job runs for moments only: no checkpoint of its own.
        c.removeConfig(CheckpointingOptions.CHECKPOINTING_INTERVAL);
        // The client's collect sink has no uid of its own; what it kept is not needed by a new client.
        c.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, true);
        EndGate gate = EndGate.create();
        gate.configure(c);
        String failure = null;
        Map<String, Long> times = Map.of();
        try (gate;
                StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
                CloseableIterator<?> results = build.apply(env)) {
            JobClient client = env.executeAsync("flink-ivm soak restore from the " + what);
            CheckpointStats rest = new CheckpointStats("http://127.0.0.1:" + port);
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            try {
                while (true) {
                    JobStatus status = client.getJobStatus().get(10, TimeUnit.SECONDS);
                    if (status.isGloballyTerminalState()) {
                        failure = "the restored job ended " + status;
                        break;
                    }
                    try {
                        List<String> names = rest.taskNames(client.getJobID());
                        times = rest.initializationMillis(client.getJobID());
                        if (!names.isEmpty() && times.size() == names.size()) {
                            break;
                        }
                    } catch (IOException e) {
                        // The REST API is not up yet, or the job not yet known to it.
                    }
                    if (System.nanoTime() > deadline) {
                        failure = "not every task was running after " + PATIENCE.toMinutes() + " min";
                        break;
                    }
                    Thread.sleep(100);
                }
            } finally {
                gate.release();
                try {
                    client.cancel().get(60, TimeUnit.SECONDS);
                } catch (Exception e) {
                    // Ended already.
                }
            }
        }
        String slowest = null;
        long millis = -1;
        for (Map.Entry<String, Long> e : times.entrySet()) {
            if (e.getValue() > millis) {
                millis = e.getValue();
                slowest = e.getKey();
            }
        }
        return new Restart(
                what,
                path,
                inserts,
                stateBytes >= 0 ? stateBytes : directoryBytes(path),
                failure == null ? millis : -1,
                slowest,
                times,
                failure);
    }

    /** The bytes of the files under a savepoint's directory (a native savepoint holds all of its files). */
    static long directoryBytes(String path) {
        Path dir = path.matches("[A-Za-z][A-Za-z0-9+.-]*:.*") ? Path.of(URI.create(path)) : Path.of(path);
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .mapToLong(f -> f.toFile().length())
                    .sum();
        } catch (IOException | IllegalArgumentException e) {
            return -1;
        }
    }

    /** One line per restore, then the slowest tasks. */
    static void print(PrintWriter out, List<Restart> restarts) {
        if (restarts.isEmpty()) {
            return;
        }
        out.println("Restore by restart (a new job from the state; Flink's task timestamps, INITIALIZING -> RUNNING"
                + " of the slowest task):");
        for (Restart r : restarts) {
            if (r.failure() != null) {
                out.printf(Locale.ROOT, "  %s: not measured: %s%n", r.what(), r.failure());
                continue;
            }
            out.printf(
                    Locale.ROOT,
                    "  %s, about %,d inserts, %s: %.2f s (%s)%n",
                    r.what(),
                    r.inserts(),
                    StateReport.bytes(r.stateBytes()),
                    r.millis() / 1000.0,
                    r.slowestTask());
        }
        out.flush();
    }
}
