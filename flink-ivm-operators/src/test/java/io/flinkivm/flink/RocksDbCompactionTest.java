package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.RocksDB;

class RocksDbCompactionTest {

    @Test
    void theEntriesGivenReachTheColumnFamilyOptionsAndTheOthersKeepRocksDbsDefaults() throws Exception {
        RocksDB.loadLibrary();
        Configuration c = new Configuration();
        c.set(RocksDbCompaction.LEVEL0_TRIGGER, 32);
        c.set(RocksDbCompaction.MIN_MERGE_WIDTH, 8);
        c.set(RocksDbCompaction.COMPRESSION_LEVEL, 9);
        List<AutoCloseable> handles = new ArrayList<>();
        try (ColumnFamilyOptions defaults = new ColumnFamilyOptions();
                ColumnFamilyOptions options = new ColumnFamilyOptions()) {
            new RocksDbCompaction().configure(c).createColumnOptions(options, handles);

            assertThat(options.level0FileNumCompactionTrigger()).isEqualTo(32);
            assertThat(options.compactionOptionsUniversal().minMergeWidth()).isEqualTo(8);
            assertThat(options.compressionOptions().level()).isEqualTo(9);
            assertThat(options.compactionOptionsUniversal().sizeRatio())
                    .isEqualTo(
                            defaults.compactionOptionsUniversal() == null
                                    ? 1
                                    : defaults.compactionOptionsUniversal().sizeRatio());
            assertThat(handles).hasSize(2);

            try (ColumnFamilyOptions untouched = new ColumnFamilyOptions()) {
                new RocksDbCompaction().configure(new Configuration()).createColumnOptions(untouched, handles);
                assertThat(untouched.level0FileNumCompactionTrigger())
                        .isEqualTo(defaults.level0FileNumCompactionTrigger());
            }
        } finally {
            for (AutoCloseable h : handles) {
                h.close();
            }
        }
    }
}
