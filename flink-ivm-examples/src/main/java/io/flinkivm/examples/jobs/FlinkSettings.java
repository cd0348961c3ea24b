package io.flinkivm.examples.jobs;

import io.flinkivm.flink.RocksDbTuning;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * How a job runs on Flink. A null field leaves Flink's own setting alone: the embedded local Flink's
 * default, or the cluster's configuration under {@code flink run}. Generic (Kryo) types are always off,
 * so that a payload without a real serializer fails when the job is built, not on the hot path. With
 * RocksDB, flink-ivm's RocksDB settings apply ({@link RocksDbTuning}: bloom filters, universal compaction with
 * wider merges, ZSTD).
 *
 * @param state the state backend, or null
 * @param parallelism the default parallelism ({@code parallelism.default}), or null
 * @param checkpointDir where checkpoints go: a path (made absolute, file://) or a URI such as
 *     {@code hdfs://...} or {@code s3://...}; or null. Setting it enables checkpointing.
 * @param checkpointInterval the checkpoint interval, or null ({@link #DEFAULT_CHECKPOINT_INTERVAL}
 *     when a directory is given). Setting it enables checkpointing.
 */
public record FlinkSettings(
        StateBackendKind state, Integer parallelism, String checkpointDir, Duration checkpointInterval) {

    /** The checkpoint interval when only a checkpoint directory is given. */
    public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(10);
    /** Restarts after a failure when checkpointing is on (then from the last checkpoint). */
    public static final int RESTART_ATTEMPTS = 3;

    public FlinkSettings {
        if (parallelism != null && parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be >= 1, got " + parallelism);
        }
        if (checkpointInterval != null && (checkpointInterval.isNegative() || checkpointInterval.isZero())) {
            throw new IllegalArgumentException("checkpoint interval must be positive, got " + checkpointInterval);
        }
    }

    /** Flink's defaults everywhere (generic types off). */
    public static FlinkSettings defaults() {
        return new FlinkSettings(null, null, null, null);
    }

    public FlinkSettings withState(StateBackendKind s) {
        return new FlinkSettings(s, parallelism, checkpointDir, checkpointInterval);
    }

    public FlinkSettings withParallelism(Integer p) {
        return new FlinkSettings(state, p, checkpointDir, checkpointInterval);
    }

    public FlinkSettings withCheckpoints(String dir, Duration interval) {
        return new FlinkSettings(state, parallelism, dir, interval);
    }

    public boolean checkpointing() {
        return checkpointDir != null || checkpointInterval != null;
    }

    /** The job configuration these settings stand for. */
    public Configuration configuration() {
        Configuration c = new Configuration();
        c.set(PipelineOptions.GENERIC_TYPES, false);
        if (state != null) {
            c.set(StateBackendOptions.STATE_BACKEND, state.configValue());
        }
        if (state == StateBackendKind.ROCKSDB) {
            RocksDbTuning.applyTo(c);
        }
        if (parallelism != null) {
            c.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        }
        if (checkpointing()) {
            c.set(
                    CheckpointingOptions.CHECKPOINTING_INTERVAL,
                    checkpointInterval == null ? DEFAULT_CHECKPOINT_INTERVAL : checkpointInterval);
            if (checkpointDir != null) {
                c.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
                c.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointUri());
            }
            // Flink's default with checkpointing restarts forever; a deterministic failure should end the job.
            c.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, RESTART_ATTEMPTS);
            c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
        }
        return c;
    }

    /**
     * A new environment with these settings: the embedded local Flink, or under {@code flink run}
     * the cluster's, with these settings on top of its configuration.
     */
    public StreamExecutionEnvironment environment() {
        return StreamExecutionEnvironment.getExecutionEnvironment(configuration());
    }

    /** The checkpoint directory as a URI ({@link #toUri}), or null. */
    public String checkpointUri() {
        return checkpointDir == null ? null : toUri(checkpointDir);
    }

    /** A directory as a URI: kept if it has a scheme, otherwise an absolute file:// URI. */
    public static String toUri(String directory) {
        if (directory.matches("[A-Za-z][A-Za-z0-9+.-]*://.*")) {
            return URI.create(directory).toString();
        }
        String uri = Path.of(directory).toAbsolutePath().normalize().toUri().toString();
        // Path.toUri() ends an existing directory with '/'; the same directory should give the same URI.
        return uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
    }

    /** One line for the user, e.g. "state rocksdb, parallelism 2, checkpoints every 10 s to file:///tmp/c". */
    public String describe(int actualParallelism) {
        StringBuilder sb = new StringBuilder();
        sb.append("state ").append(state == null ? "Flink's default" : state.configValue());
        sb.append(", parallelism ").append(actualParallelism);
        if (checkpointing()) {
            Duration d = checkpointInterval == null ? DEFAULT_CHECKPOINT_INTERVAL : checkpointInterval;
            sb.append(", checkpoints every ").append(d.toMillis()).append(" ms");
            sb.append(checkpointDir == null ? " (Flink's checkpoint storage)" : " to " + checkpointUri());
        } else {
            sb.append(", no checkpoints");
        }
        return sb.toString();
    }
}
