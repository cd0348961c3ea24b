package io.flinkivm.flink;

import io.flinkivm.core.plan.Planner;
import java.io.Serializable;
import java.time.Duration;

/**
 * Options of a flink-ivm job. Immutable; each {@code with...} returns a copy.
 *
 * @param snapshotEvery emit a prefix-exact snapshot every this many inserts (0, the default: only
 *     at the end of bounded input and on control records)
 * @param snapshotPeriod also emit a recent (not prefix-exact) snapshot on this processing-time
 *     period (null, the default: never)
 * @param sinkParallelism parallelism of the sink when every root view shares a free variable to
 *     key it by (default 1); otherwise the sink always runs at parallelism 1
 * @param strategy the planner strategy (default {@link Planner.Strategy#AUTO})
 * @param progressEvery emit a progress watermark every this many inserts (default 256): the sink
 *     holds back at most about this many inserts' updates before applying them
 * @param outputMode snapshots (default) or a changelog of upserts
 */
public record IvmOptions(long snapshotEvery, Duration snapshotPeriod, int sinkParallelism,
        Planner.Strategy strategy, long progressEvery, OutputMode outputMode) implements Serializable {

    /** Default of {@link #progressEvery()}. */
    public static final long DEFAULT_PROGRESS_EVERY = 256;

    public IvmOptions {
        if (snapshotEvery < 0) {
            throw new IllegalArgumentException("snapshotEvery must be >= 0, got " + snapshotEvery);
        }
        if (snapshotPeriod != null && (snapshotPeriod.isNegative() || snapshotPeriod.isZero())) {
            throw new IllegalArgumentException("snapshotPeriod must be positive, got " + snapshotPeriod);
        }
        if (sinkParallelism < 1) {
            throw new IllegalArgumentException("sinkParallelism must be >= 1, got " + sinkParallelism);
        }
        if (strategy == null) {
            throw new IllegalArgumentException("strategy must not be null");
        }
        if (progressEvery < 1) {
            throw new IllegalArgumentException("progressEvery must be >= 1, got " + progressEvery);
        }
        if (outputMode == null) {
            throw new IllegalArgumentException("outputMode must not be null");
        }
    }

    /** Snapshots at the end of input and on control records, sink parallelism 1, AUTO planning. */
    public static IvmOptions defaults() {
        return new IvmOptions(0, null, 1, Planner.Strategy.AUTO, DEFAULT_PROGRESS_EVERY, OutputMode.SNAPSHOT);
    }

    public IvmOptions withSnapshotEvery(long inserts) {
        return inserts == snapshotEvery ? this
                : new IvmOptions(inserts, snapshotPeriod, sinkParallelism, strategy, progressEvery, outputMode);
    }

    public IvmOptions withSnapshotPeriod(Duration period) {
        return new IvmOptions(snapshotEvery, period, sinkParallelism, strategy, progressEvery, outputMode);
    }

    public IvmOptions withSinkParallelism(int parallelism) {
        return parallelism == sinkParallelism ? this
                : new IvmOptions(snapshotEvery, snapshotPeriod, parallelism, strategy, progressEvery, outputMode);
    }

    public IvmOptions withProgressEvery(long inserts) {
        return inserts == progressEvery ? this
                : new IvmOptions(snapshotEvery, snapshotPeriod, sinkParallelism, strategy, inserts, outputMode);
    }

    public IvmOptions withOutputMode(OutputMode mode) {
        return mode == outputMode ? this
                : new IvmOptions(snapshotEvery, snapshotPeriod, sinkParallelism, strategy, progressEvery, mode);
    }

    public IvmOptions withStrategy(Planner.Strategy s) {
        return s == strategy ? this
                : new IvmOptions(snapshotEvery, snapshotPeriod, sinkParallelism, s, progressEvery, outputMode);
    }
}
