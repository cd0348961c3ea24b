package io.flinkivm.bench;

import io.flinkivm.bench.state.StateReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures systems the same way: warm-up runs that are thrown away, then timed runs whose median is
 * reported (the core suite's: no further repetition once {@link #REPEAT_BUDGET} has been spent on one
 * measurement; a Flink suite's: as many as {@code --flink-reps} asks, default 1); a
 * run stopped at the cap ends the repetitions and turns the figures into bounds (at least cap/n ns per
 * insert). Recorded measurements go to results.csv at once. Completed results (size and payload sum)
 * are kept per stream, so that every later system on the same stream is checked against the first.
 */
final class Harness {
    /** After this much time on one measurement, no further repetition starts. */
    static final Duration REPEAT_BUDGET = Duration.ofSeconds(4);

    /**
     * A measurement and the run behind its parallelism and task CPU, whose result the suites check: the
     * median run by time, or the run stopped at the cap.
     */
    record Outcome(Measurement measurement, RunResult last) {}

    private final PrintWriter out;
    private final ResultsCsv csv;
    private StateCsv stateCsv;
    private final List<Measurement> recorded = new ArrayList<>();
    private final java.util.Map<String, Reference> references = new java.util.HashMap<>();

    /** A completed result on one stream and the system that produced it. */
    record Reference(String system, long size, long checksum, long stateEntries) {}

    private static String streamKey(Workload w, InsertStream s) {
        return w.name() + "|" + s.distribution() + "|" + s.size() + "|" + s.seed();
    }

    /** The first completed result recorded for this stream, or null. */
    Reference reference(Workload w, InsertStream s) {
        return references.get(streamKey(w, s));
    }

    /**
     * Checks a completed run against the first completed result on the same stream (or makes it the
     * reference): a different size or payload sum is a {@link BenchFailure}.
     *
     * @return the reference it was checked against, or null if it became the reference
     */
    Reference check(Workload w, InsertStream s, String system, RunResult r) {
        return check(streamKey(w, s), w.name() + " " + s.distribution().label() + " n=" + s.changes(), system, r);
    }

    /**
     * {@link #check(Workload, InsertStream, String, RunResult)} for the stream {@code key}, described in a
     * failure as {@code stream}.
     */
    Reference check(String key, String stream, String system, RunResult r) {
        if (!r.completed() || r.resultSize() < 0) {
            return null;
        }
        Reference ref = references.get(key);
        if (ref == null) {
            references.put(
                    key,
                    new Reference(
                            system,
                            r.resultSize(),
                            r.checksum(),
                            "entries".equals(r.stateUnit()) ? r.stateSize() : -1));
            return null;
        }
        if (ref.size() != r.resultSize() || ref.checksum() != r.checksum()) {
            throw new BenchFailure(system + " on " + stream + " ends with " + r.resultSize()
                    + " result tuples (payload sum " + r.checksum() + "), "
                    + ref.system()
                    + " with " + ref.size() + " (payload sum " + ref.checksum() + ")");
        }
        return ref;
    }

    Harness(PrintWriter out, ResultsCsv csv) {
        this.out = out;
        this.csv = csv;
    }

    /** Redraws DIR/plot.png from everything recorded so far (after each workload, so a stopped run keeps a plot). */
    void plot() throws IOException {
        PlotPng.write(recorded, csv.path().resolveSibling(PlotPng.FILE_NAME));
    }

    PrintWriter out() {
        return out;
    }

    List<Measurement> recorded() {
        return List.copyOf(recorded);
    }

    /** Runs {@code sut} on {@code stream} until {@code minTime} has passed (at least once, at most {@code maxRuns}). */
    void warmUp(
            SystemUnderTest sut, Workload workload, InsertStream stream, Duration minTime, int maxRuns, Duration cap)
            throws Exception {
        long start = System.nanoTime();
        int runs = 0;
        do {
            RunResult r = sut.run(workload, stream, cap);
            runs++;
            if (!r.completed()) {
                break;
            }
        } while (runs < maxRuns && System.nanoTime() - start < minTime.toNanos());
    }

    /** Up to {@code reps} timed runs, none started after {@code budget}; not recorded yet. */
    Outcome measure(
            SystemUnderTest sut, Workload workload, InsertStream stream, int reps, Duration budget, Duration cap)
            throws Exception {
        return measure(
                workload.name(),
                sut.name(),
                stream.distribution().label(),
                stream.changes(),
                reps,
                budget,
                cap,
                () -> sut.run(workload, stream, cap));
    }

    /** One run of a system, as {@link #measure} times it. */
    @FunctionalInterface
    interface Run {
        RunResult run() throws Exception;
    }

    /**
     * Up to {@code reps} timed runs of {@code run} over {@code n} inserts, measured as {@code system} on
     * {@code query} and {@code distribution}, none started once {@code budget} has passed (null: all
     * {@code reps}); not recorded yet.
     */
    Outcome measure(
            String query, String system, String distribution, int n, int reps, Duration budget, Duration cap, Run run)
            throws Exception {
        List<Long> times = new ArrayList<>();
        List<Long> cpuTimes = new ArrayList<>();
        List<RunResult> completed = new ArrayList<>();
        RunResult last = null;
        RunResult capped = null;
        long budgetStart = System.nanoTime();
        for (int r = 0; r < reps; r++) {
            if (r > 0 && budget != null && System.nanoTime() - budgetStart > budget.toNanos()) {
                break;
            }
            System.gc();
            last = run.run();
            if (!last.completed()) {
                capped = last;
                break;
            }
            times.add(last.elapsedNanos());
            cpuTimes.add(last.cpuNanos());
            completed.add(last);
        }
        String note = last.note();
        Bounded ns;
        Bounded cpu;
        double seconds;
        if (times.isEmpty()) {
            ns = Bounded.atLeast((double) capped.elapsedNanos() / n);
            cpu = capped.cpuNanos() < 0 ? Bounded.UNKNOWN : Bounded.atLeast((double) capped.cpuNanos() / n);
            seconds = capped.elapsedNanos() / 1e9;
            note = (note.isEmpty() ? "" : note + "; ") + "capped at " + cap.toSeconds() + " s";
        } else {
            long median = median(times);
            ns = Bounded.exact((double) median / n);
            cpu = cpuTimes.contains(-1L) ? Bounded.UNKNOWN : Bounded.exact((double) median(cpuTimes) / n);
            seconds = median / 1e9;
            if (capped != null) {
                note = (note.isEmpty() ? "" : note + "; ") + "a later run hit the cap";
            }
        }
        RunResult state = capped != null ? capped : last;
        RunResult behind = times.isEmpty() ? capped : medianRun(completed);
        Measurement m = new Measurement(
                        query,
                        system,
                        distribution,
                        n,
                        ns,
                        ns.reciprocal(1e9),
                        cpu,
                        state.stateSize(),
                        state.stateUnit(),
                        seconds,
                        times.isEmpty() ? 1 : times.size(),
                        note)
                .withParallelism(behind.parallelism(), behind.taskCpu());
        return new Outcome(m, behind);
    }

    /** The run whose time is the median (of an even number, the lower of the middle two). */
    static RunResult medianRun(List<RunResult> runs) {
        List<RunResult> sorted = new ArrayList<>(runs);
        sorted.sort(java.util.Comparator.comparingLong(RunResult::elapsedNanos));
        return sorted.get((sorted.size() - 1) / 2);
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int k = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(k) : (sorted.get(k - 1) + sorted.get(k)) / 2;
    }

    /**
     * Adds where a Flink job's state was at its end to {@code DIR/state.csv} and prints it under the
     * measurement's progress line; nothing if it was not measured.
     */
    void recordState(Measurement m, StateReport report) throws IOException {
        if (report.isEmpty()) {
            return;
        }
        if (stateCsv == null) {
            stateCsv = new StateCsv(csv.path().getParent());
        }
        stateCsv.append(m, report);
        report.print(out, "    ");
    }

    /** Adds a measurement to the report and to results.csv, and prints a progress line. */
    void record(Measurement m) throws IOException {
        recorded.add(m);
        csv.append(m);
        out.println("  " + m.system() + (m.parallelism() > 1 ? " P=" + m.parallelism() : "") + " " + m.distribution()
                + " n=" + m.n() + ": " + m.nsPerInsert().format()
                + " ns/insert (cpu " + m.cpuNsPerInsert().format() + "), "
                + m.insertsPerSecond().format() + " inserts/s, "
                + Report.seconds(m.seconds()) + " per run (" + m.runs() + (m.runs() == 1 ? " run" : " runs") + ")"
                + (m.note().isEmpty() ? "" : ", " + m.note()));
        out.flush();
    }
}
