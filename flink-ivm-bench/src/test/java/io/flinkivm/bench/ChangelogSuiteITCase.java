package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The changelog suite at --quick size: it checks every trigger's rows itself (it throws otherwise),
 * writes a changelog-trigger and a snapshot row, prints the trigger's share of a snapshot, then runs
 * the same result's snapshot on Flink (heap and RocksDB), whose rows it checks, and times it.
 */
class ChangelogSuiteITCase {
    @TempDir
    Path dir;

    @Test
    void measuresATriggerAgainstASnapshot() throws Exception {
        BenchSettings settings = new BenchSettings(
                true,
                7,
                1,
                1,
                Duration.ofSeconds(60),
                Duration.ofSeconds(60),
                List.of(),
                List.of(Distribution.UNIFORM),
                false);
        StringWriter printed = new StringWriter();
        List<Measurement> ms = BenchCommand.run(List.of(new ChangelogSuite()), settings, dir, new PrintWriter(printed));
        assertThat(ms)
                .extracting(Measurement::system)
                .containsExactly(
                        "changelog-trigger", "snapshot", "flink-ivm-heap-snapshot", "flink-ivm-rocksdb-snapshot");
        assertThat(ms).allSatisfy(m -> {
            assertThat(m.measure()).isEqualTo(Measurement.CHANGELOG);
            assertThat(m.stateSize()).isEqualTo((long) ChangelogSuite.QUICK_SIDE * ChangelogSuite.QUICK_SIDE);
        });
        assertThat(printed.toString())
                .contains(
                        "rows = the " + ChangelogSuite.QUICK_SIDE + " changed tuples",
                        "trigger / snapshot = ",
                        "flink-ivm-rocksdb-snapshot: a snapshot of "
                                + (long) ChangelogSuite.QUICK_SIDE * ChangelogSuite.QUICK_SIDE + " tuples took");
        assertThat(ms.get(3).nsPerInsert().value()).isPositive();
        List<String> lines = Files.readAllLines(dir.resolve("results.csv"), StandardCharsets.UTF_8);
        assertThat(lines).hasSize(5);
        assertThat(lines.subList(1, 5)).allSatisfy(l -> assertThat(l).startsWith("changelog,"));
    }
}
