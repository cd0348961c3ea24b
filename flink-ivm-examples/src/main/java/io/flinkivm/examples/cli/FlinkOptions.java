package io.flinkivm.examples.cli;

import io.flinkivm.examples.jobs.FlinkSettings;
import io.flinkivm.examples.jobs.StateBackendKind;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The options that say how a job runs on Flink, mixed into {@code run} and {@code example}. */
final class FlinkOptions {

    @Option(names = "--state", paramLabel = "BACKEND", converter = Converters.StateConverter.class,
            description = {"Flink state backend: heap (hashmap) or rocksdb. Default: Flink's configured backend"
                    + " (heap for the embedded Flink)."})
    StateBackendKind state;

    @Option(names = "--parallelism", paramLabel = "N",
            description = {"Default parallelism of the Flink job (the view operators; the sink too when every root"
                    + " view shares a free variable). Default: Flink's (the number of cores for the embedded Flink,"
                    + " or 'flink run -p')."})
    Integer parallelism;

    @Option(names = "--checkpoint-dir", paramLabel = "DIR",
            description = {"Enables checkpointing to this directory: a path or a URI (file:///..., hdfs://...,"
                    + " s3://...). On a cluster every JobManager and TaskManager must reach it."})
    String checkpointDir;

    @Option(names = "--checkpoint-interval", paramLabel = "DURATION", converter = Converters.DurationConverter.class,
            description = {"Enables checkpointing with this interval, e.g. 500 ms or 10 s. Default with"
                    + " --checkpoint-dir: 10 s. With checkpoints, a failed job restarts up to 3 times from the"
                    + " last checkpoint."})
    Duration checkpointInterval;

    /** Whether any of these options was given. */
    boolean anyGiven() {
        return state != null || parallelism != null || checkpointDir != null || checkpointInterval != null;
    }

    /** The settings; a parallelism below 1 ends the command with exit code 2. */
    FlinkSettings settings() {
        checkParallelism(parallelism);
        return new FlinkSettings(state, parallelism, checkpointDir, checkpointInterval);
    }

    /** A {@code --parallelism} below 1 ends the command with exit code 2; null (not given) passes. */
    static void checkParallelism(Integer parallelism) {
        if (parallelism != null && parallelism < 1) {
            throw CliException.usage("--parallelism must be at least 1, got " + parallelism);
        }
    }
}
