package io.flinkivm.bench;

import io.flinkivm.bench.state.StateCallReporter;
import io.flinkivm.bench.state.StateReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/** The printed tables and ratio lines over recorded measurements. */
final class Report {
    private Report() {}

    /** The metric a ratio compares. */
    enum Metric {
        NS_PER_INSERT("ns per insert"),
        INSERTS_PER_SECOND("inserts per second");

        final String label;

        Metric(String label) {
            this.label = label;
        }

        Bounded of(Measurement m) {
            return this == NS_PER_INSERT ? m.nsPerInsert() : m.insertsPerSecond();
        }
    }

    static void table(PrintWriter out, List<Measurement> ms) {
        table(out, ms, false);
    }

    /** The measurements, one row each; with {@code withParallelism} a column P after the system. */
    static void table(PrintWriter out, List<Measurement> ms, boolean withParallelism) {
        String format = "%-6s %-9s %8s  %-21s" + (withParallelism ? " %2s" : "%s") + " %11s %11s %11s %22s %9s  %s%n";
        out.printf(
                Locale.ROOT,
                format,
                "query",
                "distrib.",
                "n",
                "system",
                withParallelism ? "P" : "",
                "ns/insert",
                "inserts/s",
                "cpu ns/ins",
                "state",
                "time/run",
                "note");
        for (Measurement m : ms) {
            String state = m.stateSize() < 0 ? "n/a" : m.stateSize() + " " + m.stateUnit();
            out.printf(
                    Locale.ROOT,
                    format,
                    m.query(),
                    m.distribution(),
                    m.n(),
                    m.system(),
                    withParallelism ? Integer.toString(m.parallelism()) : "",
                    m.nsPerInsert().format(),
                    m.insertsPerSecond().format(),
                    m.cpuNsPerInsert().format(),
                    state,
                    seconds(m.seconds()),
                    m.note());
        }
    }

    /**
     * Per measurement (system × P): inserts per second, CPU per insert of the process and of the task
     * threads alone, the serial share, Amdahl's bound and the most imbalanced chain ({@link TaskCpu}).
     */
    static void parallelismTable(PrintWriter out, List<Measurement> ms) {
        String format = "%-6s %-9s %8s  %-21s %2s %11s %11s %11s %7s %7s  %s%n";
        out.printf(
                Locale.ROOT,
                format,
                "query",
                "distrib.",
                "n",
                "system",
                "P",
                "inserts/s",
                "cpu ns/ins",
                "task ns/ins",
                "serial",
                "amdahl",
                "imbalance (chain)");
        for (Measurement m : ms) {
            TaskCpu t = m.taskCpu();
            TaskCpu.Chain worst = t.mostImbalanced();
            out.printf(
                    Locale.ROOT,
                    format,
                    m.query(),
                    m.distribution(),
                    m.n(),
                    m.system(),
                    m.parallelism(),
                    m.insertsPerSecond().format(),
                    m.cpuNsPerInsert().format(),
                    t.totalNanos() <= 0 ? "n/a" : Bounded.number((double) t.totalNanos() / m.n()),
                    share(t.serialShare()),
                    amdahl(t.amdahlBound()),
                    worst == null
                            ? "n/a"
                            : String.format(Locale.ROOT, "%.2f (%s)", worst.imbalance(), chainName(worst.name())));
        }
    }

    /**
     * For each system and parallelism, at the largest n of each distribution: every chain with its
     * parallelism, share of the task CPU and (above parallelism 1) imbalance across its subtasks.
     */
    static void chainsAtLargestN(PrintWriter out, List<Measurement> ms) {
        out.println("task CPU by operator chain at the largest n (chain (its parallelism) share of the job's task CPU,"
                + " max/mean across its subtasks):");
        linesAtLargestN(out, ms, m -> {
            if (m.taskCpu().totalNanos() <= 0) {
                return null;
            }
            List<String> cells = new ArrayList<>();
            for (TaskCpu.Chain c : m.taskCpu().chains()) {
                cells.add(chainName(c.name()) + " (" + c.parallelism() + ") "
                        + String.format(Locale.ROOT, "%.1f%%", 100 * m.taskCpu().share(c))
                        + (c.parallelism() > 1 && !Double.isNaN(c.imbalance())
                                ? String.format(Locale.ROOT, " %.2f", c.imbalance())
                                : ""));
            }
            return String.join("; ", cells);
        });
    }

    /**
     * For each system and parallelism, at the largest n of each distribution: CPU per insert of the
     * task threads and of the process's other threads (JIT, GC, RocksDB compaction and flush, the
     * rest), while the job ran. Nothing if no run measured the other threads.
     */
    static void othersAtLargestN(PrintWriter out, List<Measurement> ms) {
        if (ms.stream().allMatch(m -> m.taskCpu().others().isEmpty())) {
            return;
        }
        out.println("CPU per insert of the task threads and of the process's other threads while the job ran, at the"
                + " largest n (ns; JIT: the compiler threads, GC: the collector's, other: Flink's and the bench's"
                + " own):");
        linesAtLargestN(out, ms, m -> {
            TaskCpu t = m.taskCpu();
            if (t.others().isEmpty()) {
                return null;
            }
            List<String> cells = new ArrayList<>();
            cells.add("tasks " + perInsert(t.totalNanos(), m.n()));
            for (String group : TaskCpu.NAMED_OTHERS) {
                cells.add(group + " " + perInsert(t.otherNanos(group), m.n()));
            }
            cells.add("other " + perInsert(t.unnamedOtherNanos(), m.n()));
            return String.join(", ", cells);
        });
    }

    /**
     * One line per system and parallelism at the largest n of each distribution, {@code "  system P=p
     * distribution n=N: body"}, for the measurements whose {@code body} is not null.
     */
    private static void linesAtLargestN(PrintWriter out, List<Measurement> ms, Function<Measurement, String> body) {
        for (String d : distributions(ms)) {
            int n = sizes(ms, d).get(sizes(ms, d).size() - 1);
            for (Measurement m : ms) {
                String b = m.distribution().equals(d) && m.n() == n ? body.apply(m) : null;
                if (b != null) {
                    out.println("  " + m.system() + " P=" + m.parallelism() + " " + d + " n=" + n + ": " + b);
                }
            }
        }
    }

    private static String perInsert(long nanos, int n) {
        return String.format(Locale.ROOT, "%.0f", (double) nanos / n);
    }

    /** Up to 60 characters of a chain's name, without the bench's own counting sinks chained to it. */
    static String chainName(String chain) {
        int counters = chain.indexOf(" -> count ");
        String name = counters < 0 ? chain : chain.substring(0, counters);
        return name.length() <= 60 ? name : name.substring(0, 59) + "…";
    }

    /**
     * {@code ", task cpu R"}: the task threads' CPU per insert of {@code a} over {@code b} (they ran the
     * same stream), or nothing when either was not measured.
     */
    static String taskCpuRatio(Measurement a, Measurement b) {
        long ta = a.taskCpu().totalNanos();
        long tb = b.taskCpu().totalNanos();
        if (ta <= 0 || tb <= 0) {
            return "";
        }
        return String.format(Locale.ROOT, ", task cpu %.3f", (double) ta / a.n() / ((double) tb / b.n()));
    }

    private static String share(double s) {
        return Double.isNaN(s) ? "n/a" : String.format(Locale.ROOT, "%.3f", s);
    }

    private static String amdahl(double bound) {
        return Double.isNaN(bound) ? "n/a" : Double.isInfinite(bound) ? "∞" : String.format(Locale.ROOT, "%.2f", bound);
    }

    /** The measurements at parallelism {@code p}. */
    static List<Measurement> atParallelism(List<Measurement> ms, int p) {
        return ms.stream().filter(m -> m.parallelism() == p).toList();
    }

    /**
     * One line per distribution: {@code numerator/denominator} in inserts per second at each parallelism,
     * at the largest n where both completed (exact figures), with the same ratio in CPU per insert in
     * brackets; nothing if there is no such n.
     */
    static void ratiosAtLargestN(
            PrintWriter out, List<Measurement> ms, String numerator, String denominator, List<Integer> parallelisms) {
        List<String> lines = atLargestN(
                ms,
                numerator,
                denominator,
                parallelisms,
                (a, b) -> a.insertsPerSecond().isExact() && b.insertsPerSecond().isExact(),
                (a, b) -> a.insertsPerSecond().divide(b.insertsPerSecond()).format() + " (cpu "
                        + b.cpuNsPerInsert().divide(a.cpuNsPerInsert()).format() + taskCpuRatio(b, a) + ")");
        if (!lines.isEmpty()) {
            out.println("ratio " + numerator + "/" + denominator
                    + " (inserts per second, at the largest n where both completed;" + " above 1: " + numerator
                    + " is faster):");
            lines.forEach(out::println);
        }
    }

    /**
     * State size of {@code numerator} over {@code denominator} at the largest n where both completed
     * with their state measured in the same unit, per distribution and parallelism (below 1:
     * {@code numerator} holds less).
     */
    static void stateRatiosAtLargestN(
            PrintWriter out, List<Measurement> ms, String numerator, String denominator, List<Integer> parallelisms) {
        List<String> lines = atLargestN(
                ms,
                numerator,
                denominator,
                parallelisms,
                (a, b) -> a.insertsPerSecond().isExact()
                        && b.insertsPerSecond().isExact()
                        && a.stateSize() > 0
                        && b.stateSize() > 0
                        && a.stateUnit().equals(b.stateUnit()),
                (a, b) -> String.format(
                        Locale.ROOT,
                        "%s / %s = %.3f",
                        StateReport.bytes(a.stateSize()),
                        StateReport.bytes(b.stateSize()),
                        (double) a.stateSize() / b.stateSize()));
        if (!lines.isEmpty()) {
            out.println("state " + numerator + "/" + denominator + " ("
                    + ms.stream()
                            .filter(m -> m.system().equals(numerator) && m.stateSize() > 0)
                            .map(Measurement::stateUnit)
                            .findFirst()
                            .orElse("")
                    + ", at the largest n where both completed; below 1: " + numerator + " holds less):");
            lines.forEach(out::println);
        }
    }

    /**
     * Per distribution, one cell per parallelism: "P=p n=N " and {@code cell} of the two systems'
     * measurements at the largest n where {@code comparable} holds for both.
     */
    private static List<String> atLargestN(
            List<Measurement> ms,
            String numerator,
            String denominator,
            List<Integer> parallelisms,
            java.util.function.BiPredicate<Measurement, Measurement> comparable,
            java.util.function.BiFunction<Measurement, Measurement, String> cell) {
        List<String> lines = new ArrayList<>();
        for (String d : distributions(ms)) {
            List<String> cells = new ArrayList<>();
            for (int p : parallelisms) {
                List<Integer> sizes = sizes(ms, d);
                for (int k = sizes.size() - 1; k >= 0; k--) {
                    Measurement a = find(ms, numerator, d, sizes.get(k), p);
                    Measurement b = find(ms, denominator, d, sizes.get(k), p);
                    if (a != null && b != null && comparable.test(a, b)) {
                        cells.add("P=" + p + " n=" + sizes.get(k) + " " + cell.apply(a, b));
                        break;
                    }
                }
            }
            if (!cells.isEmpty()) {
                lines.add("  " + d + ": " + String.join(", ", cells));
            }
        }
        return lines;
    }

    /** One line: the system's CPU per insert at {@code high} ÷ at {@code low}, per distribution, at the largest n where both completed. */
    static void cpuScaling(PrintWriter out, List<Measurement> ms, String system, int low, int high) {
        List<String> cells = new ArrayList<>();
        for (String d : distributions(ms)) {
            List<Integer> sizes = sizes(ms, d);
            for (int k = sizes.size() - 1; k >= 0; k--) {
                Measurement a = find(ms, system, d, sizes.get(k), high);
                Measurement b = find(ms, system, d, sizes.get(k), low);
                if (a != null
                        && b != null
                        && a.cpuNsPerInsert().isExact()
                        && b.cpuNsPerInsert().isExact()) {
                    String task = taskCpuRatio(a, b);
                    cells.add(d + " n=" + sizes.get(k) + " "
                            + a.cpuNsPerInsert().divide(b.cpuNsPerInsert()).format()
                            + (task.isEmpty() ? "" : " (" + task.substring(2) + ")"));
                    break;
                }
            }
        }
        if (!cells.isEmpty()) {
            out.println("  " + system + ": " + String.join(", ", cells));
        }
    }

    /**
     * One line per distribution: {@code numerator/denominator} of the metric at each n, and in brackets the
     * same ratio in CPU time (of time per insert, turned around for a throughput ratio).
     */
    static void ratios(PrintWriter out, List<Measurement> ms, String numerator, String denominator, Metric metric) {
        out.println("ratio " + numerator + "/" + denominator + " (" + metric.label + "):");
        for (String d : distributions(ms)) {
            List<String> cells = new ArrayList<>();
            for (int n : sizes(ms, d)) {
                Measurement a = find(ms, numerator, d, n);
                Measurement b = find(ms, denominator, d, n);
                if (a != null && b != null) {
                    Bounded cpu = metric == Metric.NS_PER_INSERT
                            ? a.cpuNsPerInsert().divide(b.cpuNsPerInsert())
                            : b.cpuNsPerInsert().divide(a.cpuNsPerInsert());
                    cells.add("n=" + n + " " + metric.of(a).divide(metric.of(b)).format() + " (cpu " + cpu.format()
                            + ")");
                }
            }
            if (!cells.isEmpty()) {
                out.println("  " + d + ": " + String.join(", ", cells));
            }
        }
    }

    /** Per distribution: ns per insert at the largest n ÷ at the smallest n. */
    static void flatness(PrintWriter out, List<Measurement> ms, String system) {
        List<String> cells = new ArrayList<>();
        for (String d : distributions(ms)) {
            List<Integer> sizes = sizes(ms, d);
            if (sizes.size() < 2) {
                continue;
            }
            Measurement small = find(ms, system, d, sizes.get(0));
            Measurement large = find(ms, system, d, sizes.get(sizes.size() - 1));
            if (small != null && large != null) {
                cells.add(d + " "
                        + large.nsPerInsert().divide(small.nsPerInsert()).format() + " (cpu "
                        + large.cpuNsPerInsert().divide(small.cpuNsPerInsert()).format() + ")");
            }
        }
        if (!cells.isEmpty()) {
            out.println("  " + system + ": " + String.join(", ", cells));
        }
    }

    /**
     * One system's counting run for {@link #stateCallTable}.
     *
     * @param calls its keyed state calls ({@link StateCallReporter#take})
     * @param timed its timed run at the same n and P (for the task CPU), or null
     */
    record StateCallRun(String system, List<StateCallReporter.Calls> calls, Measurement timed) {}

    /**
     * Per system, operator and state: the keyed state calls per insert (point reads, writes, seeks, and
     * iterator steps), the bytes serialized into keys, the value bytes read and written, and the time
     * in the calls (serialization, the backend, deserialization) per insert; then per system the sum
     * against the timed run's task CPU per insert.
     */
    static void stateCallTable(PrintWriter out, String query, int n, int p, List<StateCallRun> runs) {
        out.println("State calls — " + query + " n=" + n + " P=" + p + ", per insert: every keyed state call counted"
                + " by Flink's state tracking (state.latency-track and state.size-track, every second access of a kind sampled) in one"
                + " more, untimed run; key B: bytes serialized into keys (the current key and a map's user key);"
                + " ns: time inside the calls, serialization and RocksDB included, means over the last "
                + "10,000 calls of a kind:");
        String format = "%-18s %-34s %-22s %8s %8s %8s %8s %8s %8s %8s %8s %8s %9s%n";
        out.printf(
                Locale.ROOT,
                format,
                "system",
                "operator",
                "state",
                "gets",
                "puts",
                "seeks",
                "nexts",
                "key B",
                "val B rd",
                "val B wr",
                "ns/get",
                "ns/put",
                "call ns");
        for (StateCallRun run : runs) {
            Map<String, List<StateCallReporter.Calls>> byState = new LinkedHashMap<>();
            for (StateCallReporter.Calls c : run.calls()) {
                byState.computeIfAbsent(c.operator() + "\u0000" + c.state(), k -> new ArrayList<>())
                        .add(c);
            }
            double[] total = new double[8];
            for (List<StateCallReporter.Calls> calls : byState.values()) {
                double[] row = new double[8];
                double getNanos = 0;
                double putNanos = 0;
                for (StateCallReporter.Calls c : calls) {
                    double perInsert = (double) c.count() / n;
                    if (c.isRead()) {
                        row[0] += perInsert;
                        row[5] += perInsert * c.valueBytes();
                        getNanos += perInsert * c.nanos();
                    } else if (c.isWrite()) {
                        row[1] += perInsert;
                        row[6] += perInsert * c.valueBytes();
                        putNanos += perInsert * c.nanos();
                    } else if (c.isSeek()) {
                        row[2] += perInsert;
                    } else {
                        row[3] += perInsert;
                        row[5] += perInsert * c.valueBytes();
                    }
                    row[4] += perInsert * c.keyBytes();
                    row[7] += perInsert * c.nanos();
                }
                for (int i = 0; i < row.length; i++) {
                    total[i] += row[i];
                }
                StateCallReporter.Calls first = calls.get(0);
                out.printf(
                        Locale.ROOT,
                        format,
                        run.system(),
                        chainName(first.operator()).length() > 34
                                ? chainName(first.operator()).substring(0, 33) + "…"
                                : chainName(first.operator()),
                        first.state(),
                        perCall(row[0]),
                        perCall(row[1]),
                        perCall(row[2]),
                        perCall(row[3]),
                        String.format(Locale.ROOT, "%.1f", row[4]),
                        String.format(Locale.ROOT, "%.1f", row[5]),
                        String.format(Locale.ROOT, "%.1f", row[6]),
                        row[0] > 0 ? String.format(Locale.ROOT, "%.0f", getNanos / row[0]) : "-",
                        row[1] > 0 ? String.format(Locale.ROOT, "%.0f", putNanos / row[1]) : "-",
                        String.format(Locale.ROOT, "%.0f", row[7]));
            }
            String task = run.timed() == null || run.timed().taskCpu().totalNanos() <= 0
                    ? "n/a"
                    : String.format(
                            Locale.ROOT, "%.0f", (double) run.timed().taskCpu().totalNanos() / n);
            out.printf(
                    Locale.ROOT,
                    "%-18s %-57s %8s %8s %8s %8s %8.1f %8.1f %8.1f %8s %8s %9.0f  (timed run: task CPU %s ns per insert)%n",
                    run.system(),
                    "all states",
                    perCall(total[0]),
                    perCall(total[1]),
                    perCall(total[2]),
                    perCall(total[3]),
                    total[4],
                    total[5],
                    total[6],
                    "",
                    "",
                    total[7],
                    task);
        }
        out.flush();
    }

    private static String perCall(double perInsert) {
        return perInsert == 0 ? "-" : String.format(Locale.ROOT, "%.3f", perInsert);
    }

    /** Cores and, where /proc/loadavg exists, the 1-minute load average: figures are only as quiet as the machine. */
    static String machine() {
        String load = "unknown";
        try {
            Path p = Path.of("/proc/loadavg");
            if (Files.isReadable(p)) {
                load = Files.readString(p).split(" ")[0];
            }
        } catch (IOException | RuntimeException e) {
            // Unknown load; the line says so.
        }
        return Runtime.getRuntime().availableProcessors() + " cores, load average " + load + " (1 min)";
    }

    static String seconds(double s) {
        return s >= 10 ? String.format(Locale.ROOT, "%.1f s", s) : String.format(Locale.ROOT, "%.3f s", s);
    }

    /** The insert measurement of a system on one stream, or null. */
    static Measurement find(List<Measurement> ms, String system, String distribution, int n) {
        return find(ms, system, distribution, n, Measurement.INSERT);
    }

    static Measurement find(List<Measurement> ms, String system, String distribution, int n, String measure) {
        for (Measurement m : ms) {
            if (m.system().equals(system)
                    && m.distribution().equals(distribution)
                    && m.n() == n
                    && m.measure().equals(measure)) {
                return m;
            }
        }
        return null;
    }

    /** The insert measurement of a system on one stream at parallelism {@code p}, or null. */
    static Measurement find(List<Measurement> ms, String system, String distribution, int n, int p) {
        for (Measurement m : ms) {
            if (m.system().equals(system)
                    && m.distribution().equals(distribution)
                    && m.n() == n
                    && m.parallelism() == p
                    && m.isInsert()) {
                return m;
            }
        }
        return null;
    }

    /**
     * The slope of ns per insert against n on log-log axes between the smallest and the largest n the
     * system was measured at: 0 is flat (O(1) per insert), 0.5 is √n, 1 linear. A bound at the largest
     * n makes the slope a bound.
     */
    static Bounded slope(List<Measurement> ms, String system, String distribution) {
        return slope(ms, system, distribution, Measurement::nsPerInsert);
    }

    /**
     * The slope of {@code metric} against n on log-log axes between the smallest and the largest n
     * where the system has it (not {@link Bounded.Kind#UNKNOWN}).
     */
    static Bounded slope(
            List<Measurement> ms, String system, String distribution, Function<Measurement, Bounded> metric) {
        List<Integer> sizes = sizesWith(ms, system, distribution, metric);
        if (sizes.size() < 2) {
            return Bounded.UNKNOWN;
        }
        Measurement small = find(ms, system, distribution, sizes.get(0));
        Measurement large = find(ms, system, distribution, sizes.get(sizes.size() - 1));
        Bounded ratio = metric.apply(large).divide(metric.apply(small));
        if (ratio.kind() == Bounded.Kind.UNKNOWN) {
            return Bounded.UNKNOWN;
        }
        return new Bounded(Math.log(ratio.value()) / Math.log((double) large.n() / small.n()), ratio.kind());
    }

    /** One line: the system's slope per distribution, with the n range. */
    static void slope(PrintWriter out, List<Measurement> ms, String system) {
        slope(out, ms, system, Measurement::nsPerInsert, "");
    }

    /**
     * One line: the slope of the system's state operations per insert (or change) per distribution,
     * with the n range and the counts at its ends.
     */
    static void stateOpsSlope(PrintWriter out, List<Measurement> ms, String system) {
        slope(
                out,
                ms,
                system,
                m -> m.stateOpsPerInsert() < 0 ? Bounded.UNKNOWN : Bounded.exact(m.stateOpsPerInsert()),
                " state operations per insert or change");
    }

    private static void slope(
            PrintWriter out, List<Measurement> ms, String system, Function<Measurement, Bounded> metric, String unit) {
        List<String> cells = new ArrayList<>();
        for (String d : distributions(ms)) {
            Bounded s = slope(ms, system, d, metric);
            if (s.kind() != Bounded.Kind.UNKNOWN) {
                List<Integer> sizes = sizesWith(ms, system, d, metric);
                int first = sizes.get(0);
                int last = sizes.get(sizes.size() - 1);
                cells.add(d + " " + s.format() + " (n=" + first + ".." + last
                        + (unit.isEmpty()
                                ? ""
                                : ": "
                                        + metric.apply(find(ms, system, d, first))
                                                .format() + " .. "
                                        + metric.apply(find(ms, system, d, last))
                                                .format() + unit)
                        + ")");
            }
        }
        if (!cells.isEmpty()) {
            out.println("  " + system + ": " + String.join(", ", cells));
        }
    }

    /** The sizes at which the system has a known {@code metric}, ascending. */
    private static List<Integer> sizesWith(
            List<Measurement> ms, String system, String distribution, Function<Measurement, Bounded> metric) {
        List<Integer> out = new ArrayList<>();
        for (int n : sizes(ms, distribution)) {
            Measurement m = find(ms, system, distribution, n);
            if (m != null && metric.apply(m).kind() != Bounded.Kind.UNKNOWN) {
                out.add(n);
            }
        }
        return out;
    }

    static List<String> distributions(List<Measurement> ms) {
        Set<String> out = new LinkedHashSet<>();
        for (Measurement m : ms) {
            out.add(m.distribution());
        }
        return new ArrayList<>(out);
    }

    static List<Integer> sizes(List<Measurement> ms, String distribution) {
        Set<Integer> out = new TreeSet<>();
        for (Measurement m : ms) {
            if (m.distribution().equals(distribution)) {
                out.add(m.n());
            }
        }
        return new ArrayList<>(out);
    }
}
