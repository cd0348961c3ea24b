package io.flinkivm.bench.state;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a job's state is at its end: each task's part of the final checkpoint (every state backend;
 * a task is a chain of operators) and, on RocksDB, each operator's column families (one per state
 * name) with RocksDB's estimated keys, SST bytes, live bytes and memtable bytes, read after the final
 * checkpoint flushed the memtables.
 *
 * @param checkpoint the final checkpoint, or null if none was taken
 * @param columnFamilies RocksDB's column families by operator and state (empty on heap)
 */
public record StateReport(CheckpointStats.Checkpoint checkpoint, List<StateSizeReporter.ColumnFamily> columnFamilies) {
    /** Nothing measured. */
    public static final StateReport NONE = new StateReport(null, List.of());

    public StateReport {
        columnFamilies = List.copyOf(columnFamilies);
    }

    /** Whether anything was measured. */
    public boolean isEmpty() {
        return checkpoint == null && columnFamilies.isEmpty();
    }

    /** The sum of {@code property} over all column families; -1 without RocksDB figures. */
    public long rocksDb(String property) {
        long sum = 0;
        boolean any = false;
        for (StateSizeReporter.ColumnFamily c : columnFamilies) {
            long v = c.get(property);
            if (v >= 0) {
                sum += v;
                any = true;
            }
        }
        return any ? sum : -1;
    }

    /** The final checkpoint's full size, or -1 if there was none. */
    public long checkpointBytes() {
        return checkpoint == null ? -1 : checkpoint.stateBytes();
    }

    /**
     * One row per figure: {@code part} is {@code rocksdb} (an operator's column family: keys,
     * sst_bytes, live_bytes, memtable_bytes) or {@code checkpoint} (a task: state_bytes, the full size,
     * and checkpointed_bytes, what the checkpoint wrote; the row with an empty name is the whole
     * checkpoint, with its duration_ms).
     */
    public List<Row> rows() {
        List<Row> out = new ArrayList<>();
        for (StateSizeReporter.ColumnFamily c : columnFamilies) {
            out.add(new Row("rocksdb", c.operator(), c.state(), "keys", c.get(StateSizeReporter.KEYS)));
            out.add(new Row("rocksdb", c.operator(), c.state(), "sst_bytes", c.get(StateSizeReporter.SST)));
            out.add(new Row("rocksdb", c.operator(), c.state(), "live_bytes", c.get(StateSizeReporter.LIVE)));
            out.add(new Row("rocksdb", c.operator(), c.state(), "memtable_bytes", c.get(StateSizeReporter.MEMTABLES)));
        }
        if (checkpoint != null) {
            out.add(new Row("checkpoint", "", "", "state_bytes", checkpoint.stateBytes()));
            out.add(new Row("checkpoint", "", "", "checkpointed_bytes", checkpoint.checkpointedBytes()));
            out.add(new Row("checkpoint", "", "", "duration_ms", checkpoint.durationMillis()));
            for (CheckpointStats.Task t : checkpoint.tasks()) {
                out.add(new Row("checkpoint", t.name(), "", "state_bytes", t.stateBytes()));
                out.add(new Row("checkpoint", t.name(), "", "checkpointed_bytes", t.checkpointedBytes()));
            }
        }
        return out;
    }

    /** One figure of the report ({@link #rows()}). */
    public record Row(String part, String operator, String state, String measure, long value) {}

    /** Prints the report: the column families (largest first), then each task's part of the checkpoint. */
    public void print(PrintWriter out, String indent) {
        if (!columnFamilies.isEmpty()) {
            out.printf(
                    Locale.ROOT,
                    "%s%-60s %12s %10s %10s %10s%n",
                    indent,
                    "RocksDB: operator / state (column family)",
                    "keys (est.)",
                    "SST",
                    "live",
                    "memtables");
            List<StateSizeReporter.ColumnFamily> sorted = new ArrayList<>(columnFamilies);
            sorted.sort((a, b) -> Long.compare(b.get(StateSizeReporter.SST), a.get(StateSizeReporter.SST)));
            for (StateSizeReporter.ColumnFamily c : sorted) {
                out.printf(
                        Locale.ROOT,
                        "%s%-60s %,12d %10s %10s %10s%n",
                        indent,
                        shorten(c.operator(), 44) + " / " + c.state(),
                        c.get(StateSizeReporter.KEYS),
                        bytes(c.get(StateSizeReporter.SST)),
                        bytes(c.get(StateSizeReporter.LIVE)),
                        bytes(c.get(StateSizeReporter.MEMTABLES)));
            }
            out.printf(
                    Locale.ROOT,
                    "%s%-60s %,12d %10s %10s %10s%n",
                    indent,
                    "all",
                    rocksDb(StateSizeReporter.KEYS),
                    bytes(rocksDb(StateSizeReporter.SST)),
                    bytes(rocksDb(StateSizeReporter.LIVE)),
                    bytes(rocksDb(StateSizeReporter.MEMTABLES)));
        }
        if (checkpoint != null) {
            out.printf(
                    Locale.ROOT,
                    "%sfinal checkpoint %d: %s in %d ms; by task (a chain of operators, all its subtasks):%n",
                    indent,
                    checkpoint.id(),
                    bytes(checkpoint.stateBytes()),
                    checkpoint.durationMillis());
            for (CheckpointStats.Task t : checkpoint.tasks()) {
                out.printf(
                        Locale.ROOT,
                        "%s  %10s  %s%s%n",
                        indent,
                        bytes(t.stateBytes()),
                        shorten(t.name(), 100),
                        t.parallelism() == 1 ? "" : " (" + t.parallelism() + " subtasks)");
            }
        }
        out.flush();
    }

    private static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }

    /** Bytes in B, KiB, MiB or GiB; {@code -} if not known. */
    public static String bytes(long b) {
        if (b < 0) {
            return "-";
        }
        if (b < 1024) {
            return b + " B";
        }
        if (b < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", b / 1024.0);
        }
        if (b < 1024L * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f MiB", b / (1024.0 * 1024));
        }
        return String.format(Locale.ROOT, "%.2f GiB", b / (1024.0 * 1024 * 1024));
    }
}
