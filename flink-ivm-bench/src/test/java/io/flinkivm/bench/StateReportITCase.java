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
 * The state report of the Flink suite: each job checkpoints once at its end, RocksDB's column families
 * are read after that checkpoint flushed them, and DIR/state.csv holds both, next to Flink SQL's.
 */
class StateReportITCase {

    @TempDir
    Path dir;

    @Test
    void everyJobReportsItsFinalCheckpointAndRocksDbItsColumnFamiliesAfterTheFlush() throws Exception {
        BenchSettings settings = new BenchSettings(
                false,
                7,
                1,
                1,
                Duration.ofSeconds(60),
                Duration.ofSeconds(120),
                List.of(3_000),
                List.of(Distribution.UNIFORM),
                false);
        StringWriter printed = new StringWriter();

        List<Measurement> ms = BenchCommand.run(
                List.of(new FlinkSuite(
                        new Example10Workload(),
                        List.of(
                                new FlinkIvmSystem("hashmap"),
                                new FlinkIvmSystem("rocksdb"),
                                FlinkSqlSystem.onRocksDb()))),
                settings,
                dir,
                new PrintWriter(printed));

        List<String[]> rows = Files.readAllLines(dir.resolve(StateCsv.FILE_NAME), StandardCharsets.UTF_8).stream()
                .skip(1)
                .map(l -> BenchTable.split(l).toArray(new String[0]))
                .toList();
        assertThat(Files.readAllLines(dir.resolve(StateCsv.FILE_NAME)).get(0)).isEqualTo(StateCsv.HEADER);
        for (String system : List.of("flink-ivm-heap", "flink-ivm-rocksdb", "flink-sql-rocksdb")) {
            List<String[]> mine = rows.stream().filter(r -> r[1].equals(system)).toList();
            assertThat(mine)
                    .as(system + ": the whole final checkpoint")
                    .anyMatch(r -> r[5].equals("checkpoint")
                            && r[6].isEmpty()
                            && r[8].equals("state_bytes")
                            && Long.parseLong(r[9]) > 0);
            assertThat(mine)
                    .as(system + ": each task's part of it")
                    .anyMatch(r -> r[5].equals("checkpoint") && !r[6].isEmpty() && Long.parseLong(r[9]) > 0);
        }
        List<String[]> ivm = rows.stream()
                .filter(r -> r[1].equals("flink-ivm-rocksdb") && r[5].equals("rocksdb"))
                .toList();
        assertThat(ivm)
                .as("the sink's records, in SST files after the flush")
                .anyMatch(r -> r[6].contains("sink")
                        && r[7].equals("join-records")
                        && r[8].equals("sst_bytes")
                        && Long.parseLong(r[9]) > 0);
        assertThat(ivm)
                .as("a view of the tree operator")
                .anyMatch(r -> r[6].startsWith("tree 0")
                        && r[7].startsWith("view-")
                        && r[8].equals("keys")
                        && Long.parseLong(r[9]) > 0);
        // The final checkpoint flushed every memtable: what is left is an empty memtable's arena block.
        assertThat(ivm)
                .filteredOn(r -> r[8].equals("memtable_bytes"))
                .allSatisfy(r ->
                        assertThat(Long.parseLong(r[9])).as(r[6] + "/" + r[7]).isLessThan(64 * 1024));
        assertThat(rows)
                .as("Flink SQL's joins, by state")
                .anyMatch(
                        r -> r[1].equals("flink-sql-rocksdb") && r[6].startsWith("Join[") && r[7].endsWith("-records"));

        // results.csv's state of a RocksDB system: the SST files and memtables of state.csv.
        Measurement rocks = ms.stream()
                .filter(m -> m.system().equals("flink-ivm-rocksdb"))
                .findFirst()
                .orElseThrow();
        long sum = ivm.stream()
                .filter(r -> r[8].equals("sst_bytes") || r[8].equals("memtable_bytes"))
                .mapToLong(r -> Long.parseLong(r[9]))
                .sum();
        assertThat(rocks.stateSize()).isEqualTo(sum);
        assertThat(rocks.stateUnit()).isEqualTo(FlinkIvmSystem.ROCKSDB_BYTES);

        assertThat(printed.toString())
                .contains(
                        "RocksDB: operator / state (column family)",
                        "final checkpoint ",
                        "by task (a chain of operators, all its subtasks)",
                        "state flink-ivm-rocksdb/flink-sql-rocksdb (bytes (RocksDB SST files + memtables after the"
                                + " final checkpoint), at the largest n where both completed; below 1: flink-ivm-rocksdb"
                                + " holds less):");
    }
}
