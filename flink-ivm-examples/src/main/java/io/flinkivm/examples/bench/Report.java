package io.flinkivm.examples.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/** The printed tables and ratio lines over recorded measurements. */
final class Report {
    private Report() {
    }

    /** The metric a ratio compares. */
    enum Metric {
        NS_PER_INSERT("ns per insert"), INSERTS_PER_SECOND("inserts per second");

        final String label;

        Metric(String label) {
            this.label = label;
        }

        Bounded of(Measurement m) {
            return this == NS_PER_INSERT ? m.nsPerInsert() : m.insertsPerSecond();
        }
    }

    static void table(PrintWriter out, List<Measurement> ms) {
        String format = "%-6s %-9s %8s  %-18s %11s %11s %11s %22s %9s  %s%n";
        out.printf(Locale.ROOT, format, "query", "distrib.", "n", "system", "ns/insert", "inserts/s", "cpu ns/ins", "state",
                "time/run", "note");
        for (Measurement m : ms) {
            String state = m.stateSize() < 0 ? "n/a" : m.stateSize() + " " + m.stateUnit();
            out.printf(Locale.ROOT, format, m.query(), m.distribution(), m.n(), m.system(), m.nsPerInsert().format(),
                    m.insertsPerSecond().format(), m.cpuNsPerInsert().format(), state, seconds(m.seconds()), m.note());
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
                    Bounded cpu = metric == Metric.NS_PER_INSERT ? a.cpuNsPerInsert().divide(b.cpuNsPerInsert())
                            : b.cpuNsPerInsert().divide(a.cpuNsPerInsert());
                    cells.add("n=" + n + " " + metric.of(a).divide(metric.of(b)).format() + " (cpu " + cpu.format() + ")");
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
                cells.add(d + " " + large.nsPerInsert().divide(small.nsPerInsert()).format() + " (cpu "
                        + large.cpuNsPerInsert().divide(small.cpuNsPerInsert()).format() + ")");
            }
        }
        if (!cells.isEmpty()) {
            out.println("  " + system + ": " + String.join(", ", cells));
        }
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
            if (m.system().equals(system) && m.distribution().equals(distribution) && m.n() == n
                    && m.measure().equals(measure)) {
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
        List<Integer> sizes = new ArrayList<>();
        for (int n : sizes(ms, distribution)) {
            if (find(ms, system, distribution, n) != null) {
                sizes.add(n);
            }
        }
        if (sizes.size() < 2) {
            return Bounded.UNKNOWN;
        }
        Measurement small = find(ms, system, distribution, sizes.get(0));
        Measurement large = find(ms, system, distribution, sizes.get(sizes.size() - 1));
        Bounded ratio = large.nsPerInsert().divide(small.nsPerInsert());
        if (ratio.kind() == Bounded.Kind.UNKNOWN) {
            return Bounded.UNKNOWN;
        }
        return new Bounded(Math.log(ratio.value()) / Math.log((double) large.n() / small.n()), ratio.kind());
    }

    /** One line: the system's slope per distribution, with the n range. */
    static void slope(PrintWriter out, List<Measurement> ms, String system) {
        List<String> cells = new ArrayList<>();
        for (String d : distributions(ms)) {
            Bounded s = slope(ms, system, d);
            if (s.kind() != Bounded.Kind.UNKNOWN) {
                List<Integer> sizes = sizes(ms, d).stream().filter(n -> find(ms, system, d, n) != null).toList();
                cells.add(d + " " + s.format() + " (n=" + sizes.get(0) + ".." + sizes.get(sizes.size() - 1) + ")");
            }
        }
        if (!cells.isEmpty()) {
            out.println("  " + system + ": " + String.join(", ", cells));
        }
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
