package io.flinkivm.flink;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.state.rocksdb.RocksDBConfigurableOptions;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;

/**
 * flink-ivm's RocksDB settings, optional: a job on the RocksDB state backend runs without them, and gets them
 * by {@code RocksDbTuning.applyTo(configuration)} before its environment is made, e.g.
 * {@code StreamExecutionEnvironment.getExecutionEnvironment(RocksDbTuning.applyTo(conf))}, or, on a cluster,
 * by the same entries in its Flink configuration (docs/state.md lists them). They keep the cost per insert
 * and per checkpoint flat as the state grows:
 *
 * <ul>
 *   <li>bloom filters ({@code state.backend.rocksdb.use-bloom-filter}): most of flink-ivm's state reads are
 *       point lookups, many of absent keys (a view's first tuple of a key, a join key nobody waits for),
 *       which a bloom filter answers without reading a data block of every sorted run;</li>
 *   <li>partitioned index and filter blocks ({@code state.backend.rocksdb.memory.partitioned-index-filters}):
 *       a point read then loads the small partition of a sorted run's index and filter that covers its key,
 *       not the whole block. When the state outgrows the slot's block cache, a whole filter block of a
 *       large run is read and decompressed again for nearly every point read;</li>
 *   <li>universal compaction ({@code state.backend.rocksdb.compaction.style: UNIVERSAL}): each checkpoint
 *       flushes every column family into a small file whose keys span the key range; leveled compaction
 *       (RocksDB's default) merges every few of them into the whole of level 1, which grows with the state,
 *       universal compaction merges sorted runs of similar size;</li>
 *   <li>ZSTD on every level ({@code state.backend.rocksdb.compression.per.level}): flink-ivm's keys and
 *       payloads are variable-length integers that Flink's default, Snappy, hardly shrinks;</li>
 *   <li>wider, rarer merges through {@link RocksDbCompaction}, an options factory for what Flink's
 *       configuration does not reach: a merge starts at {@value #LEVEL0_TRIGGER} sorted runs (RocksDB: 4)
 *       and takes at least {@value #MIN_MERGE_WIDTH} (2), and the whole state is compacted once the newer
 *       runs reach {@value #MAX_SIZE_AMPLIFICATION}% of the oldest's size (RocksDB: 200%). An incremental
 *       checkpoint uploads what compaction wrote since the one before; the price is a point read behind up
 *       to {@value #LEVEL0_TRIGGER} bloom filters per column family.</li>
 * </ul>
 *
 * <p>An options factory or compression given in the configuration, before or after this call, wins over it.
 * The measurements behind these choices are in docs/benchmarks.md.
 */
@PublicEvolving
public final class RocksDbTuning {

    /** Sorted runs that start a merge ({@link RocksDbCompaction#LEVEL0_TRIGGER}). */
    public static final int LEVEL0_TRIGGER = 12;
    /** The fewest sorted runs a merge takes ({@link RocksDbCompaction#MIN_MERGE_WIDTH}). */
    public static final int MIN_MERGE_WIDTH = 6;
    /**
     * The newer runs' size over the oldest's, in percent, that compacts the whole state
     * ({@link RocksDbCompaction#MAX_SIZE_AMPLIFICATION}).
     */
    public static final int MAX_SIZE_AMPLIFICATION = 100;

    private RocksDbTuning() {}

    /**
     * Sets flink-ivm's RocksDB settings in {@code c} and returns it. It does not choose the state backend
     * ({@code state.backend.type: rocksdb}): on the heap backend the entries have no effect.
     */
    public static Configuration applyTo(Configuration c) {
        c.set(RocksDBConfigurableOptions.USE_BLOOM_FILTER, true);
        if (!c.contains(RocksDBOptions.USE_PARTITIONED_INDEX_FILTERS)) {
            c.set(RocksDBOptions.USE_PARTITIONED_INDEX_FILTERS, true);
        }
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
        return c;
    }

    private static void setIfAbsent(Configuration c, ConfigOption<Integer> option, int value) {
        if (!c.contains(option)) {
            c.set(option, value);
        }
    }
}
