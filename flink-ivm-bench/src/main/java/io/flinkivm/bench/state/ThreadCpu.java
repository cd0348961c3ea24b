package io.flinkivm.bench.state;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CPU time of this process's threads, grouped by what they do, from Linux's {@code /proc/self/task}
 * (so RocksDB's native compaction and flush threads are counted too, which the JVM does not see).
 * Groups: each Flink task thread by its operator chain, {@code RocksDB compaction} ({@code rocksdb:low}), {@code RocksDB flush}
 * ({@code rocksdb:high}), {@code GC}, {@code JIT} and {@code other (NAME)} by the Linux thread name without trailing digits. Threads that ended are no longer
 * counted. Elsewhere than on Linux the sample is empty. {@code soak} samples it per tenth of its stream,
 * {@code bench} around each Flink job.
 */
public final class ThreadCpu {
    private static final Path TASKS = Path.of("/proc/self/task");
    /** Linux reports thread times in clock ticks of 1/100 s ({@code USER_HZ}, 100 on every mainstream kernel). */
    private static final long NANOS_PER_TICK = 10_000_000L;
    /** A Flink task thread: "operator chain (subtask/parallelism)#attempt". */
    private static final Pattern TASK_THREAD = Pattern.compile("(.*) \\(\\d+/\\d+\\)#\\d+");

    /** The group of RocksDB's compaction threads. */
    public static final String COMPACTION = "RocksDB compaction";
    /** The group of RocksDB's flush threads. */
    public static final String FLUSH = "RocksDB flush";
    /** The group of the JVM's compiler threads. */
    public static final String JIT = "JIT";
    /** The group of the garbage collector's threads (and the VM thread, which runs its pauses). */
    public static final String GC = "GC";
    /** What the group of a Flink task thread starts with, before its operator chain's name. */
    public static final String TASK = "task ";

    private ThreadCpu() {}

    /** CPU nanoseconds used so far per group; empty if {@code /proc} cannot be read. */
    public static Map<String, Long> sample() {
        Map<String, Long> groups = new TreeMap<>();
        if (!Files.isDirectory(TASKS)) {
            return groups;
        }
        // Linux keeps the first 15 characters of a Java thread's name; the full names tell task threads.
        Map<String, String> fullNames = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            String n = t.getName();
            fullNames.putIfAbsent(n.length() > 15 ? n.substring(0, 15) : n, n);
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                try {
                    // Only the newline goes: a truncated Java name may end in a space.
                    String name = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8)
                            .replace("\n", "");
                    long ticks = ticks(Files.readString(task.resolve("stat"), StandardCharsets.UTF_8));
                    if (ticks >= 0) {
                        groups.merge(
                                group(name, fullNames.getOrDefault(name, name)), ticks * NANOS_PER_TICK, Long::sum);
                    }
                } catch (IOException e) {
                    // The thread ended between listing and reading.
                }
            }
        } catch (IOException e) {
            return new TreeMap<>();
        }
        return groups;
    }

    /** utime + stime of one {@code /proc/.../stat} line (fields 14 and 15; the name in parentheses may hold spaces). */
    static long ticks(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            return -1;
        }
        String[] f = stat.substring(close + 2).trim().split(" ");
        // f[0] is field 3 (state); utime is field 14, stime field 15.
        if (f.length < 13) {
            return -1;
        }
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** The group of a thread with Linux name {@code name} and Java name {@code javaName} (the same for native threads). */
    static String group(String name, String javaName) {
        if (name.equals("rocksdb:low")) {
            return COMPACTION;
        }
        if (name.equals("rocksdb:high")) {
            return FLUSH;
        }
        if (name.startsWith("GC Thread") || name.startsWith("G1 ") || name.startsWith("VM Thread")) {
            return GC;
        }
        if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
            return JIT;
        }
        Matcher task = TASK_THREAD.matcher(javaName);
        if (task.matches()) {
            return TASK + task.group(1);
        }
        return "other (" + name.replaceAll("[0-9]+$", "") + ")";
    }

    /** The difference {@code later - earlier} per group (groups of either). */
    public static Map<String, Long> minus(Map<String, Long> later, Map<String, Long> earlier) {
        Map<String, Long> d = new TreeMap<>();
        for (Map.Entry<String, Long> e : later.entrySet()) {
            d.put(e.getKey(), e.getValue() - earlier.getOrDefault(e.getKey(), 0L));
        }
        return d;
    }
}
