package io.flinkivm.flink;

import java.util.Collection;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.state.rocksdb.ConfigurableRocksDBOptionsFactory;
import org.apache.flink.state.rocksdb.RocksDBOptionsFactory;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionOptionsUniversal;
import org.rocksdb.CompressionOptions;
import org.rocksdb.DBOptions;

/**
 * RocksDB compaction settings that Flink's configuration does not reach: how many sorted runs start
 * a compaction, universal compaction's merge rules and the compression level, from the {@code flinkivm.rocksdb.*} entries of
 * the job's configuration. Install it with {@code state.backend.rocksdb.options-factory:
 * io.flinkivm.flink.RocksDbCompaction}; an entry that is not given keeps RocksDB's default.
 * {@link RocksDbTuning#applyTo} installs it with flink-ivm's values.
 */
@PublicEvolving
public final class RocksDbCompaction implements ConfigurableRocksDBOptionsFactory {
    private static final long serialVersionUID = 1L;

    /** Sorted runs (level-0 files) that start a compaction (RocksDB: 4). */
    public static final ConfigOption<Integer> LEVEL0_TRIGGER = ConfigOptions.key(
                    "flinkivm.rocksdb.level0-file-num-compaction-trigger")
            .intType()
            .noDefaultValue();
    /** Universal compaction: a run joins a merge if its size is within this percentage of the runs before (1). */
    public static final ConfigOption<Integer> SIZE_RATIO =
            ConfigOptions.key("flinkivm.rocksdb.universal.size-ratio").intType().noDefaultValue();
    /** Universal compaction: the fewest runs a merge by size ratio takes (2). */
    public static final ConfigOption<Integer> MIN_MERGE_WIDTH = ConfigOptions.key(
                    "flinkivm.rocksdb.universal.min-merge-width")
            .intType()
            .noDefaultValue();
    /** Universal compaction: the newer runs' size over the oldest's, in percent, that forces a full compaction (200). */
    public static final ConfigOption<Integer> MAX_SIZE_AMPLIFICATION = ConfigOptions.key(
                    "flinkivm.rocksdb.universal.max-size-amplification-percent")
            .intType()
            .noDefaultValue();

    /** The compression level of every level's codec, e.g. ZSTD's 1 to 19 (RocksDB: the codec's default, ZSTD 3). */
    public static final ConfigOption<Integer> COMPRESSION_LEVEL =
            ConfigOptions.key("flinkivm.rocksdb.compression-level").intType().noDefaultValue();

    private Integer level0Trigger;
    private Integer compressionLevel;
    private Integer sizeRatio;
    private Integer minMergeWidth;
    private Integer maxSizeAmplification;

    @Override
    public RocksDBOptionsFactory configure(ReadableConfig config) {
        level0Trigger = config.getOptional(LEVEL0_TRIGGER).orElse(null);
        sizeRatio = config.getOptional(SIZE_RATIO).orElse(null);
        minMergeWidth = config.getOptional(MIN_MERGE_WIDTH).orElse(null);
        maxSizeAmplification = config.getOptional(MAX_SIZE_AMPLIFICATION).orElse(null);
        compressionLevel = config.getOptional(COMPRESSION_LEVEL).orElse(null);
        return this;
    }

    @Override
    public DBOptions createDBOptions(DBOptions current, Collection<AutoCloseable> handlesToClose) {
        return current;
    }

    @Override
    public ColumnFamilyOptions createColumnOptions(
            ColumnFamilyOptions current, Collection<AutoCloseable> handlesToClose) {
        if (level0Trigger != null) {
            current.setLevel0FileNumCompactionTrigger(level0Trigger);
        }
        if (compressionLevel != null) {
            CompressionOptions compression = new CompressionOptions();
            handlesToClose.add(compression);
            compression.setLevel(compressionLevel);
            current.setCompressionOptions(compression);
        }
        if (sizeRatio != null || minMergeWidth != null || maxSizeAmplification != null) {
            CompactionOptionsUniversal universal = new CompactionOptionsUniversal();
            handlesToClose.add(universal);
            if (sizeRatio != null) {
                universal.setSizeRatio(sizeRatio);
            }
            if (minMergeWidth != null) {
                universal.setMinMergeWidth(minMergeWidth);
            }
            if (maxSizeAmplification != null) {
                universal.setMaxSizeAmplificationPercent(maxSizeAmplification);
            }
            current.setCompactionOptionsUniversal(universal);
        }
        return current;
    }
}
