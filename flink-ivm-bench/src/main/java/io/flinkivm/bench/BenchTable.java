package io.flinkivm.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The Flink rows of bench runs' results.csv files as the markdown table of docs/benchmarks.md's current
 * figures: one row per workload, n, P, object reuse and system, with its ns per row (the median of its
 * timed runs), its task CPU per row, and on a peer's row flink-ivm's speed-up against it: the peer's ns
 * per row over flink-ivm's on the same state backend (above 1: flink-ivm is faster) and, in brackets,
 * the peer's task CPU per row over flink-ivm's. A bound (a run stopped at its cap) keeps its {@code >},
 * and a ratio with a bound is a bound.
 */
final class BenchTable {
    static final String HEADER = "| workload | n | P | object reuse | system | ns per row | task CPU ns per row"
            + " | flink-ivm's speed-up (task CPU) |";
    static final String SEPARATOR = "| --- | --- | --- | --- | --- | --- | --- | --- |";

    /** The data of a workload's own generator, left out of the workload's cell; others are named there. */
    private static final Set<String> OWN_DATA = Set.of("uniform", "tpch", "nexmark");

    private static final List<String> BACKENDS = List.of("heap", "rocksdb", "forst");

    /** One measurement, as results.csv has it. */
    record Row(
            String query,
            String system,
            String distribution,
            int n,
            int parallelism,
            String objectReuse,
            Bounded nsPerRow,
            Bounded taskCpuPerRow,
            int runs,
            String file) {

        String key() {
            return query + "|" + distribution + "|" + n + "|" + parallelism + "|" + objectReuse + "|" + system;
        }

        String group() {
            return query + "|" + distribution + "|" + n + "|" + parallelism + "|" + objectReuse;
        }
    }

    private BenchTable() {}

    /**
     * The insert rows of {@code files} (results.csv files of bench runs) whose system {@code systems}
     * accepts, at each workload's and distribution's largest n, or at {@code n} if it is positive.
     *
     * @throws IllegalArgumentException if a file lacks a column the table needs, or two files have a
     *     figure for the same workload, n, P, object reuse and system
     */
    static List<Row> read(List<Path> files, Predicate<String> systems, int n) throws IOException {
        Map<String, Row> byKey = new LinkedHashMap<>();
        for (Path file : files) {
            for (Row r : read(file)) {
                if (!systems.test(r.system())) {
                    continue;
                }
                Row before = byKey.put(r.key(), r);
                if (before != null) {
                    throw new IllegalArgumentException(r.system() + " on " + r.query() + " " + r.distribution() + " n="
                            + r.n() + " P=" + r.parallelism() + " is in " + before.file() + " and in " + r.file()
                            + "; give each figure once");
                }
            }
        }
        Map<String, Integer> largest = new HashMap<>();
        for (Row r : byKey.values()) {
            largest.merge(r.query() + "|" + r.distribution(), r.n(), Math::max);
        }
        List<Row> out = new ArrayList<>();
        for (Row r : byKey.values()) {
            if (n > 0 ? r.n() == n : r.n() == largest.get(r.query() + "|" + r.distribution())) {
                out.add(r);
            }
        }
        return out;
    }

    /** The insert rows of one results.csv. */
    static List<Row> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(file + " is empty, not a bench results.csv");
        }
        List<String> header = split(lines.get(0));
        Map<String, Integer> column = new HashMap<>();
        for (int i = 0; i < header.size(); i++) {
            column.put(header.get(i), i);
        }
        for (String needed :
                List.of("query", "system", "distribution", "n", "ns_per_insert", "measure", "parallelism")) {
            if (!column.containsKey(needed)) {
                throw new IllegalArgumentException(
                        file + " has no column " + needed + ": its header is not results.csv's " + ResultsCsv.HEADER);
            }
        }
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            List<String> f = split(lines.get(i));
            if (f.size() != header.size()) {
                throw new IllegalArgumentException(
                        file + " line " + (i + 1) + " has " + f.size() + " fields, its header " + header.size());
            }
            if (!f.get(column.get("measure")).equals(Measurement.INSERT)) {
                continue;
            }
            rows.add(new Row(
                    f.get(column.get("query")),
                    f.get(column.get("system")),
                    f.get(column.get("distribution")),
                    Integer.parseInt(f.get(column.get("n"))),
                    Integer.parseInt(f.get(column.get("parallelism"))),
                    cell(f, column, "object_reuse", "off"),
                    Bounded.parse(f.get(column.get("ns_per_insert"))),
                    Bounded.parse(cell(f, column, "task_cpu_ns_per_insert", "")),
                    Integer.parseInt(cell(f, column, "runs", "1")),
                    file.toString()));
        }
        return rows;
    }

    private static String cell(List<String> fields, Map<String, Integer> column, String name, String otherwise) {
        Integer i = column.get(name);
        return i == null || fields.get(i).isEmpty() ? otherwise : fields.get(i);
    }

    /** One CSV line's fields, as {@link ResultsCsv#field} quotes them. */
    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        out.add(field.toString());
        return out;
    }

    /**
     * The markdown table of {@code rows}: the header, then per workload (in the rows' order), n, P and
     * object reuse, flink-ivm's systems and their peers by state backend (heap, RocksDB, ForSt).
     */
    static List<String> markdown(List<Row> rows) {
        Map<String, List<Row>> groups = new LinkedHashMap<>();
        List<String> queries = new ArrayList<>();
        for (Row r : rows) {
            groups.computeIfAbsent(r.group(), k -> new ArrayList<>()).add(r);
            if (!queries.contains(r.query())) {
                queries.add(r.query());
            }
        }
        List<List<Row>> ordered = new ArrayList<>(groups.values());
        ordered.sort(
                Comparator.<List<Row>>comparingInt(g -> queries.indexOf(g.get(0).query()))
                        .thenComparing(g -> g.get(0).distribution())
                        .thenComparingInt(g -> g.get(0).n())
                        .thenComparingInt(g -> g.get(0).parallelism())
                        .thenComparing(g -> g.get(0).objectReuse().equals("on")));
        int runs = rows.stream().mapToInt(Row::runs).max().orElse(1);
        List<String> out = new ArrayList<>(List.of(HEADER, SEPARATOR));
        for (List<Row> group : ordered) {
            List<Row> sorted = new ArrayList<>(group);
            sorted.sort(Comparator.comparingInt((Row r) -> BACKENDS.indexOf(backend(r.system())))
                    .thenComparing(r -> !isIvm(r.system())));
            Map<String, Row> bySystem = new HashMap<>();
            for (Row r : group) {
                bySystem.put(r.system(), r);
            }
            for (Row r : sorted) {
                Row ivm = bySystem.get("flink-ivm-" + backend(r.system()));
                out.add(line(r, isIvm(r.system()) ? null : ivm, runs));
            }
        }
        return out;
    }

    private static String line(Row r, Row ivm, int runs) {
        String ratio = "";
        if (ivm != null) {
            Bounded speed = r.nsPerRow().divide(ivm.nsPerRow());
            Bounded cpu = r.taskCpuPerRow().divide(ivm.taskCpuPerRow());
            ratio = speed.kind() == Bounded.Kind.UNKNOWN
                    ? "n/a"
                    : times(speed) + (cpu.kind() == Bounded.Kind.UNKNOWN ? "" : " (" + times(cpu) + ")");
        }
        return "| `" + r.query() + "`" + (OWN_DATA.contains(r.distribution()) ? "" : " " + r.distribution())
                + " | " + count(r.n())
                + " | " + r.parallelism()
                + " | " + r.objectReuse()
                + " | " + r.system()
                + " | " + nanos(r.nsPerRow())
                + (r.runs() < runs ? " (" + r.runs() + (r.runs() == 1 ? " run)" : " runs)") : "")
                + " | " + nanos(r.taskCpuPerRow())
                + " | " + ratio + " |";
    }

    /** flink-ivm-heap, -rocksdb, -forst. */
    private static boolean isIvm(String system) {
        return system.startsWith("flink-ivm-");
    }

    /** The state backend a system runs on, by its name's ending: heap unless it says rocksdb or forst. */
    static String backend(String system) {
        for (String b : BACKENDS) {
            if (system.endsWith("-" + b)) {
                return b;
            }
        }
        return "heap";
    }

    /** Whole nanoseconds with thousands separators, a bound with its sign; {@code n/a} if unknown. */
    static String nanos(Bounded b) {
        return switch (b.kind()) {
            case UNKNOWN -> "n/a";
            case AT_LEAST -> "> " + String.format(Locale.ROOT, "%,.0f", b.value());
            case AT_MOST -> "< " + String.format(Locale.ROOT, "%,.0f", b.value());
            case EXACT -> String.format(Locale.ROOT, "%,.0f", b.value());
        };
    }

    /** A ratio with two decimals and {@code ×}, a bound with its sign. */
    static String times(Bounded b) {
        String v = String.format(Locale.ROOT, "%.2f×", b.value());
        return switch (b.kind()) {
            case AT_LEAST -> "> " + v;
            case AT_MOST -> "< " + v;
            default -> v;
        };
    }

    /** n as {@code 10^k} for a power of ten from 10 up, else with thousands separators. */
    static String count(int n) {
        int k = 0;
        long p = 1;
        while (p < n) {
            p *= 10;
            k++;
        }
        return p == n && k > 0 ? "10^" + k : String.format(Locale.ROOT, "%,d", n);
    }
}
