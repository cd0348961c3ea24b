package io.flinkivm.bench;

import io.flinkivm.bench.state.StateReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * state.csv: where each Flink job's state was at its end ({@link StateReport}), one row per figure,
 * written and flushed as soon as the job is measured. {@code part} is {@code rocksdb} (an operator's
 * column family, i.e. one state name: {@code keys} RocksDB's estimate, {@code sst_bytes} its SST files
 * after the final checkpoint flushed the memtables, {@code live_bytes} RocksDB's estimate of the live
 * data in them, {@code memtable_bytes}) or {@code checkpoint} (a task, i.e. a chain of operators, all
 * its subtasks: {@code state_bytes} its part of the final checkpoint's full size, {@code
 * checkpointed_bytes} what that checkpoint wrote for it; the row without an operator is the whole
 * checkpoint, with its {@code duration_ms}).
 */
final class StateCsv {
    static final String FILE_NAME = "state.csv";
    static final String HEADER = "query,system,distribution,n,parallelism,part,operator,state,measure,value";

    private final Path path;

    /** Starts {@code DIR/state.csv} afresh: its header only. */
    StateCsv(Path directory) throws IOException {
        Files.createDirectories(directory);
        this.path = directory.resolve(FILE_NAME);
        Files.writeString(path, HEADER + System.lineSeparator(), StandardCharsets.UTF_8);
    }

    Path path() {
        return path;
    }

    void append(Measurement m, StateReport report) throws IOException {
        StringBuilder sb = new StringBuilder();
        for (StateReport.Row r : report.rows()) {
            sb.append(String.join(
                            ",",
                            ResultsCsv.field(m.query()),
                            ResultsCsv.field(m.system()),
                            ResultsCsv.field(m.distribution()),
                            Integer.toString(m.n()),
                            Integer.toString(m.parallelism()),
                            r.part(),
                            ResultsCsv.field(r.operator()),
                            ResultsCsv.field(r.state()),
                            r.measure(),
                            Long.toString(r.value())))
                    .append(System.lineSeparator());
        }
        Files.writeString(path, sb, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }
}
