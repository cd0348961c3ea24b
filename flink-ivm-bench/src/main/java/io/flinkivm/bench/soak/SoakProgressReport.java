package io.flinkivm.bench.soak;

import io.flinkivm.bench.state.StateReport;
import io.flinkivm.bench.state.StateSizeReporter;
import io.flinkivm.bench.state.ThreadCpu;
import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.types.InputRecord;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What the soak prints after its run: the tenths with their checkpoints and threads, the summary, and the result check against core. */
final class SoakProgressReport {
    /** How many differing result rows a failed check shows. */
    static final int SHOWN_DIFFERENCES = 5;

    private SoakProgressReport() {}

    static void printProgress(PrintWriter out, List<SoakReport.Tenth> t, long start, Map<String, Long> rocksDb) {
        if (!t.isEmpty()) {
            SoakReport.Tenth last = t.get(t.size() - 1);
            out.printf(
                    Locale.ROOT,
                    "  tenth %2d done at %8.1f s: %,13d inserts processed, %,10d inserts/s, %6.1f µs CPU"
                            + " per insert (%s in compaction)%s%n",
                    t.size(),
                    (last.toMillis() - start) / 1000.0,
                    last.toInserts(),
                    Math.round(last.throughput()),
                    last.cpuMicrosPerInsert(),
                    micros(last.threadMicrosPerInsert(ThreadCpu.COMPACTION)),
                    rocksDb.isEmpty()
                            ? ""
                            : String.format(
                                    Locale.ROOT,
                                    "; RocksDB: SST files %s, live data %s, memtables %s, %,d keys (est.)",
                                    StateReport.bytes(rocksDb.getOrDefault(StateSizeReporter.SST, 0L)),
                                    StateReport.bytes(rocksDb.getOrDefault(StateSizeReporter.LIVE, 0L)),
                                    StateReport.bytes(rocksDb.getOrDefault(StateSizeReporter.MEMTABLES, 0L)),
                                    rocksDb.getOrDefault(StateSizeReporter.KEYS, 0L)));
            out.flush();
        }
    }

    /**
     * One line per tenth: its throughput, CPU time per insert (all threads, and RocksDB's compaction
     * threads alone) and the checkpoints that completed in it.
     */
    static void printTable(PrintWriter out, List<SoakReport.Tenth> tenths, List<SoakReport.Checkpoint> checkpoints) {
        out.printf(
                Locale.ROOT,
                "  %-6s %13s %9s %13s %10s %10s %6s %9s %9s %12s %12s%n",
                "tenth",
                "inserts done",
                "seconds",
                "inserts/s",
                "cpu µs/ins",
                "compact µs",
                "ckpts",
                "median ms",
                "max ms",
                "full state",
                "written");
        for (int i = 0; i < tenths.size(); i++) {
            SoakReport.Tenth last = tenths.get(i);
            List<SoakReport.Checkpoint> in = inTenth(checkpoints, last);
            long[] durations = durations(in);
            long[] incremental = written(in);
            out.printf(
                    Locale.ROOT,
                    "  %-6d %,13d %9.1f %,13d %10.1f %10s %6d %9s %9s %12s %12s%n",
                    i + 1,
                    last.toInserts(),
                    (last.toMillis() - last.fromMillis()) / 1000.0,
                    Math.round(last.throughput()),
                    last.cpuMicrosPerInsert(),
                    micros(last.threadMicrosPerInsert(ThreadCpu.COMPACTION)),
                    in.size(),
                    durations.length == 0 ? "-" : Long.toString(median(durations)),
                    durations.length == 0 ? "-" : Long.toString(durations[durations.length - 1]),
                    in.isEmpty() ? "-" : StateReport.bytes(in.get(in.size() - 1).stateSize()),
                    incremental.length == 0 ? "-" : StateReport.bytes(median(incremental)));
        }
        out.flush();
    }

    /** The checkpoints' durations, sorted. */
    static long[] durations(List<SoakReport.Checkpoint> in) {
        return in.stream()
                .mapToLong(SoakReport.Checkpoint::durationMillis)
                .sorted()
                .toArray();
    }

    /** The bytes each checkpoint wrote, sorted. */
    static long[] written(List<SoakReport.Checkpoint> in) {
        return in.stream()
                .mapToLong(SoakReport.Checkpoint::checkpointedSize)
                .sorted()
                .toArray();
    }

    /** The checkpoints that completed within a tenth. */
    static List<SoakReport.Checkpoint> inTenth(List<SoakReport.Checkpoint> checkpoints, SoakReport.Tenth tenth) {
        List<SoakReport.Checkpoint> in = new ArrayList<>();
        for (SoakReport.Checkpoint c : checkpoints) {
            long done = c.triggerMillis() + c.durationMillis();
            if (done > tenth.fromMillis() && done <= tenth.toMillis()) {
                in.add(c);
            }
        }
        return in;
    }

    /** "median duration X ms, median written Y" of the checkpoints in a tenth, or "none". */
    static String medians(List<SoakReport.Checkpoint> in) {
        if (in.isEmpty()) {
            return "no checkpoint";
        }
        long[] d = durations(in);
        long[] w = written(in);
        return String.format(
                Locale.ROOT,
                "%d checkpoint%s, median duration %d ms, median written %s",
                in.size(),
                in.size() == 1 ? "" : "s",
                median(d),
                StateReport.bytes(median(w)));
    }

    static void printSummary(
            PrintWriter out,
            long n,
            long millis,
            List<SoakReport.Tenth> tenths,
            List<SoakReport.Checkpoint> checkpoints,
            long failed,
            long resultSize,
            long deadLetters,
            long snapshotMillis) {
        out.println();
        printTable(out, tenths, checkpoints);
        out.println();
        out.printf(
                Locale.ROOT,
                "Done: %,d inserts in %.1f s (%,d inserts/s, start-up and final snapshot included),"
                        + " %,d dead letters; result: %,d tuples (final snapshot: %s)%n",
                n,
                millis / 1000.0,
                Math.round(n * 1000.0 / Math.max(1, millis)),
                deadLetters,
                resultSize,
                snapshotMillis < 0 ? "?" : snapshotMillis + " ms at the sink");
        if (tenths.size() >= 2) {
            SoakReport.Tenth first = tenths.get(0);
            SoakReport.Tenth last = tenths.get(tenths.size() - 1);
            out.printf(
                    Locale.ROOT,
                    "Throughput: first tenth %,d inserts/s, last tenth %,d inserts/s, last/first = %.3f%n",
                    Math.round(first.throughput()),
                    Math.round(last.throughput()),
                    last.throughput() / first.throughput());
            out.printf(
                    Locale.ROOT,
                    "CPU per insert (the whole process): first tenth %.1f µs, last tenth %.1f µs,"
                            + " last/first = %.3f%n",
                    first.cpuMicrosPerInsert(),
                    last.cpuMicrosPerInsert(),
                    last.cpuMicrosPerInsert() / first.cpuMicrosPerInsert());
        }
        if (checkpoints.isEmpty()) {
            out.println("Checkpoints: none completed (" + failed + " failed)");
        } else {
            long[] d = durations(checkpoints);
            long[] inc = written(checkpoints);
            if (tenths.size() >= 2) {
                out.println("Checkpoints in the first tenth: "
                        + medians(inTenth(checkpoints, tenths.get(0)))
                        + "; in the last tenth: " + medians(inTenth(checkpoints, tenths.get(tenths.size() - 1))));
            }
            SoakReport.Checkpoint lastCheckpoint = checkpoints.get(checkpoints.size() - 1);
            out.printf(
                    Locale.ROOT,
                    "Checkpoints: %d completed, %d failed; duration min %d ms, median %d ms, p90 %d ms,"
                            + " max %d ms; written per checkpoint median %s, max %s; written in all %s, %.1f bytes"
                            + " per insert%n",
                    checkpoints.size(),
                    failed,
                    d[0],
                    median(d),
                    d[(int) Math.min(d.length - 1, Math.ceil(d.length * 0.9) - 1)],
                    d[d.length - 1],
                    StateReport.bytes(median(inc)),
                    StateReport.bytes(inc[inc.length - 1]),
                    StateReport.bytes(java.util.Arrays.stream(inc).sum()),
                    java.util.Arrays.stream(inc).sum() / (double) n);
            out.printf(
                    Locale.ROOT,
                    "State size: %s (full size of checkpoint %d, the last completed, after about %,d" + " inserts)%n",
                    StateReport.bytes(lastCheckpoint.stateSize()),
                    lastCheckpoint.id(),
                    insertsAt(tenths, lastCheckpoint.triggerMillis()));
        }
        out.flush();
    }

    /**
     * CPU microseconds per insert by thread group ({@link ThreadCpu}) in the first and the last tenth:
     * which part of the job got more expensive as the state grew.
     */
    static void printThreads(PrintWriter out, List<SoakReport.Tenth> tenths) {
        // The last tenth may end at the snapshot trigger, where no per-thread sample is taken: then the
        // last tenth with samples at both ends is compared.
        int lastIndex = -1;
        for (int i = tenths.size() - 1; i >= 1 && lastIndex < 0; i--) {
            if (!tenths.get(i).threadNanos().isEmpty()) {
                lastIndex = i;
            }
        }
        if (lastIndex < 0 || tenths.get(0).threadNanos().isEmpty()) {
            return;
        }
        SoakReport.Tenth first = tenths.get(0);
        SoakReport.Tenth last = tenths.get(lastIndex);
        out.println("CPU per insert by thread (µs; first tenth -> tenth " + (lastIndex + 1) + "):");
        last.threadNanos().entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> {
                    double before = first.threadMicrosPerInsert(e.getKey());
                    double after = last.threadMicrosPerInsert(e.getKey());
                    if (before >= 0.05 || after >= 0.05) {
                        out.printf(Locale.ROOT, "  %-45s %8.1f -> %8.1f%n", e.getKey(), before, after);
                    }
                });
        out.flush();
    }

    static String micros(double perInsert) {
        return Double.isNaN(perInsert) ? "-" : String.format(Locale.ROOT, "%.1f", perInsert);
    }

    /** About how many inserts were processed at {@code millis}, interpolated within its tenth. */
    static long insertsAt(List<SoakReport.Tenth> tenths, long millis) {
        long at = 0;
        for (SoakReport.Tenth t : tenths) {
            if (millis >= t.toMillis()) {
                at = t.toInserts();
            } else if (millis >= t.fromMillis()) {
                double f = (millis - t.fromMillis()) / (double) Math.max(1, t.toMillis() - t.fromMillis());
                return t.fromInserts() + Math.round(f * (t.toInserts() - t.fromInserts()));
            }
        }
        return at;
    }

    static <T> boolean check(
            MaintenancePlan plan,
            Semiring<T> semiring,
            SoakStream<T> stream,
            Map<Tuple, T> flinkResult,
            PrintWriter out) {
        long start = System.nanoTime();
        IvmEngine<T> engine = Engines.create(plan, semiring);
        long n = stream.count();
        for (long i = 0; i < n; i++) {
            InputRecord<T> r = stream.record(i);
            engine.insert(r.relation(), r.tuple(), r.payload());
        }
        long differences = 0;
        long engineSize = 0;
        long absentInFlink = 0;
        List<String> shown = new ArrayList<>();
        Iterator<ResultTuple<T>> it = engine.enumerate();
        while (it.hasNext()) {
            ResultTuple<T> e = it.next();
            engineSize++;
            T f = flinkResult.get(e.tuple());
            if (f == null || !f.equals(e.payload())) {
                differences++;
                absentInFlink += f == null ? 1 : 0;
                if (shown.size() < SHOWN_DIFFERENCES) {
                    shown.add(e.tuple() + ": engine " + semiring.format(e.payload()) + ", Flink "
                            + (f == null ? "absent" : semiring.format(f)));
                }
            }
        }
        // Tuples in the Flink result that the engine does not have.
        differences += flinkResult.size() - (engineSize - absentInFlink);
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        if (differences == 0) {
            out.printf(
                    Locale.ROOT,
                    "Check: the Flink result equals the in-memory engine's on the same stream"
                            + " (%,d tuples; the engine took %d s)%n",
                    engineSize,
                    seconds);
            out.flush();
            return true;
        }
        out.printf(
                Locale.ROOT,
                "Check FAILED: the Flink result (%,d tuples) differs from the in-memory engine's"
                        + " (%,d tuples) in %,d tuples%s%n",
                flinkResult.size(),
                engineSize,
                differences,
                shown.isEmpty() ? "" : ", e.g.:");
        for (String s : shown) {
            out.println("  " + s);
        }
        out.flush();
        return false;
    }

    static long median(long[] sorted) {
        return sorted[(sorted.length - 1) / 2];
    }
}
