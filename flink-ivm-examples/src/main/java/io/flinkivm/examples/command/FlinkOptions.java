package io.flinkivm.examples.command;

import io.flinkivm.examples.jobs.FlinkSettings;
import io.flinkivm.examples.jobs.StateBackendKind;
import java.time.Duration;
import java.util.function.Function;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Option;

/**
 * The options that say how a job runs on Flink, declared once and mixed into {@code run}, {@code example},
 * {@code soak} and {@code kafka}. Without an option, Flink's own setting holds (the embedded Flink's
 * default, or the cluster's under {@code flink run}); a command whose purpose needs another default gives
 * it through its {@code defaultValueProvider} ({@link OptionDefaults}), and its help shows it.
 */
public final class FlinkOptions {

    @Option(
            names = "--state",
            paramLabel = "BACKEND",
            converter = Converters.StateConverter.class,
            showDefaultValue = Visibility.ON_DEMAND,
            description = {
                "Flink state backend: heap (hashmap) or rocksdb (with flink-ivm's RocksDB settings)."
                        + " Where no default is shown: Flink's configured backend (heap for the embedded Flink)."
            })
    StateBackendKind state;

    @Option(
            names = "--parallelism",
            paramLabel = "P",
            converter = Converters.ParallelismConverter.class,
            showDefaultValue = Visibility.ON_DEMAND,
            description = {
                "Parallelism of every flink-ivm operator (ingest, view trees, sink; a one-cell sink runs"
                        + " at 1) and of the command's source. Where no default is shown: Flink's (the number of cores"
                        + " for the embedded Flink, or 'flink run -p')."
            })
    Integer parallelism;

    @Option(
            names = "--checkpoint-dir",
            paramLabel = "DIR",
            showDefaultValue = Visibility.ON_DEMAND,
            description = {
                "Checkpoint storage: a path or a URI (file:///..., hdfs://..., s3://...); on a cluster every"
                        + " JobManager and TaskManager must reach it. Enables checkpointing. Without it, checkpoints go to"
                        + " Flink's configured storage (the soak: a temporary directory)."
            })
    String checkpointDir;

    @Option(
            names = "--checkpoint-interval",
            paramLabel = "DURATION",
            converter = Converters.CheckpointIntervalConverter.class,
            showDefaultValue = Visibility.ON_DEMAND,
            description = {
                "Checkpoint interval: 500 ms, 3 s, 2 min, or a bare number of milliseconds (1000);"
                        + " 0 turns checkpoints off. Enables checkpointing; where no default is shown and only"
                        + " --checkpoint-dir is given, it is 10 s. With checkpoints, a failed job restarts from the last one."
            })
    Duration checkpointInterval;

    /** Whether any of these options was given (or defaulted by the command). */
    public boolean anyGiven() {
        return state != null || parallelism != null || checkpointDir != null || checkpointInterval != null;
    }

    /** Whether {@code --checkpoint-interval 0} turned checkpoints off. */
    public boolean checkpointsOff() {
        return checkpointInterval != null && checkpointInterval.isZero();
    }

    /**
     * The settings ({@code --checkpoint-interval 0}: no checkpoints); {@code --checkpoint-dir} with
     * {@code --checkpoint-interval 0} ends the command with exit code 2.
     */
    public FlinkSettings settings() {
        return settings(CliException::usage);
    }

    /** As {@link #settings()}, with the command's own usage error. */
    public FlinkSettings settings(Function<String, ? extends RuntimeException> usage) {
        if (checkpointsOff() && checkpointDir != null) {
            throw usage.apply("--checkpoint-dir enables checkpoints, --checkpoint-interval 0 turns them off:"
                    + " give one of them");
        }
        return new FlinkSettings(state, parallelism, checkpointDir, checkpointsOff() ? null : checkpointInterval);
    }

    public StateBackendKind state() {
        return state;
    }

    /** The parallelism, or null for Flink's. */
    public Integer parallelism() {
        return parallelism;
    }

    /** The checkpoint directory, or null. */
    public String checkpointDir() {
        return checkpointDir;
    }

    /** The checkpoint interval, {@link Duration#ZERO} for "off", or null (not given). */
    public Duration checkpointInterval() {
        return checkpointInterval;
    }
}
