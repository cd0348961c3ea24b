package io.flinkivm.examples.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.flink.RocksDbTuning;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class FlinkSettingsTest {

    @Test
    void defaultsOnlyTurnGenericTypesOff() {
        assertThat(FlinkSettings.defaults().configuration().toMap())
                .containsExactly(Map.entry("pipeline.generic-types", "false"));
    }

    @Test
    void mapsOptionsToFlinkKeys() {
        Map<String, String> c = new FlinkSettings(StateBackendKind.ROCKSDB, 4, "/tmp/ckpt", Duration.ofMillis(500))
                .configuration()
                .toMap();

        assertThat(c)
                .containsEntry("state.backend.type", "rocksdb")
                .containsAllEntriesOf(RocksDbTuning.applyTo(new Configuration()).toMap())
                .containsEntry("parallelism.default", "4")
                .containsEntry("execution.checkpointing.interval", "500 ms")
                .containsEntry("execution.checkpointing.storage", "filesystem")
                .containsEntry("execution.checkpointing.dir", "file:///tmp/ckpt")
                .containsEntry("restart-strategy.type", "fixed-delay")
                .containsEntry("restart-strategy.fixed-delay.attempts", "3");
        assertThat(new FlinkSettings(StateBackendKind.HEAP, null, null, null)
                        .configuration()
                        .toMap())
                .containsEntry("state.backend.type", "hashmap")
                .doesNotContainKey("execution.checkpointing.interval")
                .doesNotContainKey("state.backend.rocksdb.use-bloom-filter")
                .doesNotContainKey("state.backend.rocksdb.compaction.style");
    }

    @Test
    void aCheckpointDirectoryAloneCheckpointsEveryTenSeconds() {
        Map<String, String> c = FlinkSettings.defaults()
                .withCheckpoints("s3://bucket/ckpt", null)
                .configuration()
                .toMap();

        assertThat(c)
                .containsEntry("execution.checkpointing.interval", "10 s")
                .containsEntry("execution.checkpointing.dir", "s3://bucket/ckpt");
    }

    @Test
    void relativeCheckpointDirectoriesBecomeFileUris() {
        FlinkSettings s = FlinkSettings.defaults().withCheckpoints("ckpt", null);

        assertThat(s.checkpointUri())
                .isEqualTo(Path.of("ckpt").toAbsolutePath().toUri().toString());
        assertThat(s.describe(2))
                .isEqualTo("state Flink's default, parallelism 2, checkpoints every 10000 ms to " + s.checkpointUri());
    }

    @Test
    void rejectsBadValues() {
        assertThatThrownBy(() -> new FlinkSettings(null, 0, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parallelism must be >= 1");
        assertThatThrownBy(() -> new FlinkSettings(null, null, null, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("checkpoint interval must be positive");
    }
}
