package io.flinkivm.bench;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * results.csv: one row per {@link Measurement}, written and flushed as soon as it is measured. A value
 * that is only a bound carries {@code >} or {@code <} in front; an unmeasured state size is empty. The
 * last column says what was measured: {@code insert} (the stream's inserts: inserts/s, ns per insert,
 * state at the end) or {@code enumerate} (the full result after the stream: result tuples per second
 * in {@code inserts_per_second}, ns per tuple in {@code ns_per_insert}, the number of result tuples in
 * {@code state_size}). {@code cpu_ns_per_insert} is CPU time per insert (or per tuple): the measuring
 * thread's plus GC for the core engines, the whole process's for Flink jobs ({@link CpuClock}); on a
 * shared machine it is the steadier figure, as wall time grows with other processes' load.
 * {@code state_ops_per_insert} (empty where not counted) is the core suite's count of state operations
 * per insert from a separate, untimed run over the same inserts ({@link Measurement#stateOpsPerInsert}).
 * The last three columns are the Flink job's: {@code parallelism} P (1 for the core engines, which run
 * on one thread), {@code serial_share} (CPU of the task threads of chains at parallelism 1 ÷ CPU of
 * all task threads, {@link TaskCpu#serialShare}) and {@code max_subtask_imbalance} (max/mean subtask CPU
 * of the most uneven chain at parallelism > 1, {@link TaskCpu#maxImbalance}); both empty where not measured.
 * Then {@code task_cpu_ns_per_insert}, the CPU of the job's task threads per insert in the run behind the
 * figures (the median run; empty where not measured), {@code runs}, the timed runs the figures are the
 * median of, and {@code object_reuse}, the bench's {@code --object-reuse} ({@code on} or {@code off}),
 * which every Flink job of the run had. {@link BenchTable} reads the file back.
 */
final class ResultsCsv implements Closeable {
    static final String FILE_NAME = "results.csv";
    static final String HEADER =
            "query,system,distribution,n,inserts_per_second,ns_per_insert,state_size,state_unit,measure,cpu_ns_per_insert,state_ops_per_insert,"
                    + "parallelism,serial_share,max_subtask_imbalance,task_cpu_ns_per_insert,runs,object_reuse";

    /** The value of {@code object_reuse} for Flink's object reuse {@code on} or off. */
    static String onOff(boolean on) {
        return on ? "on" : "off";
    }

    private final Path path;
    private final BufferedWriter writer;
    private final boolean objectReuse;

    /** DIR/results.csv of a run without object reuse. */
    ResultsCsv(Path directory) throws IOException {
        this(directory, false);
    }

    /** DIR/results.csv of a run whose Flink jobs have object reuse {@code on} or off. */
    ResultsCsv(Path directory, boolean objectReuse) throws IOException {
        this.objectReuse = objectReuse;
        Files.createDirectories(directory);
        this.path = directory.resolve(FILE_NAME);
        this.writer = Files.newBufferedWriter(path, StandardCharsets.UTF_8);
        writer.write(HEADER);
        writer.newLine();
        writer.flush();
    }

    Path path() {
        return path;
    }

    void append(Measurement m) throws IOException {
        writer.write(String.join(
                ",",
                field(m.query()),
                field(m.system()),
                field(m.distribution()),
                Integer.toString(m.n()),
                cell(m.insertsPerSecond(), 0),
                cell(m.nsPerInsert(), 1),
                m.stateSize() < 0 ? "" : Long.toString(m.stateSize()),
                field(m.stateSize() < 0 ? "n/a" : m.stateUnit()),
                m.measure(),
                cell(m.cpuNsPerInsert(), 1),
                m.stateOpsPerInsert() < 0 ? "" : String.format(Locale.ROOT, "%.3f", m.stateOpsPerInsert()),
                Integer.toString(m.parallelism()),
                decimal(m.taskCpu().serialShare(), 3),
                decimal(m.taskCpu().maxImbalance(), 3),
                taskCpu(m),
                Integer.toString(m.runs()),
                onOff(objectReuse)));
        writer.newLine();
        writer.flush();
    }

    private static String cell(Bounded b, int decimals) {
        if (b.kind() == Bounded.Kind.UNKNOWN) {
            return "";
        }
        String prefix = switch (b.kind()) {
            case AT_LEAST -> ">";
            case AT_MOST -> "<";
            default -> "";
        };
        return prefix + String.format(Locale.ROOT, "%." + decimals + "f", b.value());
    }

    /** Task CPU per insert; a run stopped at its cap used at least that much (its ns per insert is a bound too). */
    private static String taskCpu(Measurement m) {
        long nanos = m.taskCpu().totalNanos();
        if (nanos <= 0) {
            return "";
        }
        return (m.nsPerInsert().kind() == Bounded.Kind.AT_LEAST ? ">" : "")
                + String.format(Locale.ROOT, "%.1f", (double) nanos / m.n());
    }

    private static String decimal(double v, int decimals) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    static String field(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}
