package io.flinkivm.examples.jobs;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.state.rocksdb.RocksDBConfigurableOptions;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;

/**
 * How a job runs on Flink. A null field leaves Flink's own setting alone: the embedded local Flink's
 * default, or the cluster's configuration under {@code flink run}. Generic (Kryo) types are always off,
 * so that a payload without a real serializer fails when the job is built, not on the hot path. With
 * RocksDB, flink-ivm's RocksDB settings apply ({@link #tuneRocksDb}: bloom filters, universal compaction with
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
            tuneRocksDb(c);
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
     * flink-ivm's RocksDB settings on top of {@code c}:
     * <ul>
     *   <li>bloom filters ({@code state.backend.rocksdb.use-bloom-filter}). Most of flink-ivm's state reads
     *       are point lookups, many of absent keys (a view's first tuple of a key, a join key nobody waits
     *       for); a bloom filter answers those without reading data blocks from every level and every
     *       checkpoint's L0 file.</li>
     *   <li>universal compaction ({@code state.backend.rocksdb.compaction.style: UNIVERSAL}). Each
     *       checkpoint flushes every column family's memtable into a small L0 file. Under leveled
     *       compaction (RocksDB's default) every few of those are merged into all of L1 (an L0 file
     *       holds keys from across the key range, so it overlaps every L1 file), and L1 grows with the
     *       state: the compaction work per insert grows with the state. Universal compaction merges sorted runs of
     *       similar size, so a byte is rewritten about log(state / flush) times. In the 10^7-insert soak
     *       (growing domain, checkpoints every 3 s) compaction took 1.9 µs per insert in the first tenth
     *       and 16.0 µs in the ninth under leveled compaction, 2.0 and 8.4 µs under universal, which used
     *       6 to 9 µs less CPU per insert in tenths 6 to 9. It keeps more on disk between full
     *       compactions (142 MiB of state at the end, against 126 MiB) and uploads less per incremental
     *       checkpoint (median 10.8 MiB, against 15.7 MiB).</li>
     *   <li>ZSTD compression on every level ({@code state.backend.rocksdb.compression.per.level}):
     *       flink-ivm's keys and payloads are variable-length integers that Snappy hardly shrinks; ZSTD
     *       writes about 2.5 times less.</li>
     *   <li>wider, rarer merges ({@link RocksDbCompaction}, an options factory for what Flink's
     *       configuration does not reach): a merge starts at {@value #LEVEL0_TRIGGER} sorted runs
     *       (RocksDB: 4) and takes at least {@value #MIN_MERGE_WIDTH} (2), and the whole state is
     *       compacted once the newer runs reach the size of the oldest ({@value #MAX_SIZE_AMPLIFICATION}%;
     *       RocksDB: 200%). An incremental checkpoint uploads what compaction wrote since the one
     *       before: in the 10^7-insert soak these three settings write 15.7 bytes per insert into the
     *       checkpoints instead of 35 (median per 3 s checkpoint 5.2 MiB on quiet cores, 3.1-4.8 MiB on
     *       loaded ones, instead of 7.8), and end with 27.5-40 MiB of state instead of 47, with a point
     *       lookup reading up to
     *       {@value #LEVEL0_TRIGGER} runs per column family (each behind a bloom filter).</li>
     * </ul>
     *
     * <p>Each figure above compares a setting with the one before it, in the same runs, on the job of
     * the day the setting was chosen; the job has since become faster and smaller, and the README's
     * paragraph "Checkpoints." and the soak table after it have this version's figures.
     *
     * <p>An options factory or compaction setting given in the configuration before or after this call
     * is not overridden by it: {@code --flink-conf} entries win.
     */
    public static void tuneRocksDb(Configuration c) {
        c.set(RocksDBConfigurableOptions.USE_BLOOM_FILTER, true);
        c.set(RocksDBConfigurableOptions.COMPACTION_STYLE, CompactionStyle.UNIVERSAL);
        if (!c.contains(RocksDBConfigurableOptions.COMPRESSION_PER_LEVEL)) {
            // As a string: the form a config.yaml and --flink-conf take, one type for every level.
            c.setString(
                    RocksDBConfigurableOptions.COMPRESSION_PER_LEVEL.key(), CompressionType.ZSTD_COMPRESSION.name());
        }
        if (!c.contains(RocksDBOptions.OPTIONS_FACTORY)) {
            c.set(RocksDBOptions.OPTIONS_FACTORY, RocksDbCompaction.class.getName());
            setIfAbsent(c, RocksDbCompaction.LEVEL0_TRIGGER, LEVEL0_TRIGGER);
            setIfAbsent(c, RocksDbCompaction.MIN_MERGE_WIDTH, MIN_MERGE_WIDTH);
            setIfAbsent(c, RocksDbCompaction.MAX_SIZE_AMPLIFICATION, MAX_SIZE_AMPLIFICATION);
        }
    }

    /** Sorted runs that start a merge ({@link #tuneRocksDb}). */
    public static final int LEVEL0_TRIGGER = 12;
    /** The fewest sorted runs a merge takes ({@link #tuneRocksDb}). */
    public static final int MIN_MERGE_WIDTH = 6;
    /** Newer runs over the oldest, in percent, that compact the whole state ({@link #tuneRocksDb}). */
    public static final int MAX_SIZE_AMPLIFICATION = 100;

    private static void setIfAbsent(Configuration c, ConfigOption<Integer> option, int value) {
        if (!c.contains(option)) {
            c.set(option, value);
        }
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
