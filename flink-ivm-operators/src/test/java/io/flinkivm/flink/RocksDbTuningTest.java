package io.flinkivm.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class RocksDbTuningTest {

    @Test
    void setsBloomFiltersPartitionedFiltersUniversalCompactionZstdAndTheCompactionFactory() {
        Configuration c = new Configuration();

        assertThat(RocksDbTuning.applyTo(c)).isSameAs(c);
        assertThat(c.toMap())
                .containsEntry("state.backend.rocksdb.use-bloom-filter", "true")
                .containsEntry("state.backend.rocksdb.memory.partitioned-index-filters", "true")
                .containsEntry("state.backend.rocksdb.compaction.style", "UNIVERSAL")
                .containsEntry("state.backend.rocksdb.compression.per.level", "ZSTD_COMPRESSION")
                .containsEntry("state.backend.rocksdb.options-factory", RocksDbCompaction.class.getName())
                .containsEntry("flinkivm.rocksdb.level0-file-num-compaction-trigger", "12")
                .containsEntry("flinkivm.rocksdb.universal.min-merge-width", "6")
                .containsEntry("flinkivm.rocksdb.universal.max-size-amplification-percent", "100")
                .doesNotContainKey("state.backend.type");
    }

    @Test
    void anOptionsFactoryAndACompressionGivenBeforeAreKept() {
        Configuration c = new Configuration();
        c.setString("state.backend.rocksdb.options-factory", "com.example.MyFactory");
        c.setString("state.backend.rocksdb.compression.per.level", "LZ4_COMPRESSION");
        RocksDbTuning.applyTo(c);

        assertThat(c.toMap())
                .containsEntry("state.backend.rocksdb.options-factory", "com.example.MyFactory")
                .containsEntry("state.backend.rocksdb.compression.per.level", "LZ4_COMPRESSION")
                .doesNotContainKey("flinkivm.rocksdb.level0-file-num-compaction-trigger");
    }

    @Test
    void compactionEntriesGivenBeforeAreKept() {
        Configuration c = new Configuration();
        c.set(RocksDbCompaction.LEVEL0_TRIGGER, 20);
        RocksDbTuning.applyTo(c);

        assertThat(c.get(RocksDbCompaction.LEVEL0_TRIGGER)).isEqualTo(20);
        assertThat(c.get(RocksDbCompaction.MIN_MERGE_WIDTH)).isEqualTo(RocksDbTuning.MIN_MERGE_WIDTH);
    }

    /** docs/state.md shows a cluster's configuration the same settings (surefire runs in this module's directory). */
    @Test
    void theDocsShowExactlyTheseEntries() throws IOException {
        String page = Files.readString(Path.of("..", "docs", "state.md"), StandardCharsets.UTF_8);
        int marker = page.indexOf("<!-- rocksdb-tuning");
        assertThat(marker).as("docs/state.md has a block marked rocksdb-tuning").isNotNegative();
        int start = page.indexOf('\n', page.indexOf("```", marker)) + 1;
        Map<String, String> shown = new LinkedHashMap<>();
        for (String line : page.substring(start, page.indexOf("\n```", start)).split("\n")) {
            int colon = line.indexOf(": ");
            shown.put(line.substring(0, colon), line.substring(colon + 2));
        }

        assertThat(shown).isEqualTo(RocksDbTuning.applyTo(new Configuration()).toMap());
    }
}
