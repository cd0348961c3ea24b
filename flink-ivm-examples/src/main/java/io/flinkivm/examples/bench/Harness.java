package io.flinkivm.examples.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures systems the same way: warm-up runs that are thrown away, then timed runs whose median is
 * reported; a run stopped at the cap ends the repetitions and turns the figures into bounds (at least
 * cap/n ns per insert). Recorded measurements go to results.csv at once.
 */
final class Harness {

    /** A measurement and the last run behind it (for result checks). */
    record Outcome(Measurement measurement, RunResult last) {
    }

    private final PrintWriter out;
    private final ResultsCsv csv;
    private final List<Measurement> recorded = new ArrayList<>();

    Harness(PrintWriter out, ResultsCsv csv) {
        this.out = out;
        this.csv = csv;
    }

    PrintWriter out() {
        return out;
    }

    List<Measurement> recorded() {
        return List.copyOf(recorded);
    }

    /** Runs {@code sut} on {@code stream} until {@code minTime} has passed (at least once, at most {@code maxRuns}). */
    void warmUp(SystemUnderTest sut, Workload workload, InsertStream stream, Duration minTime, int maxRuns, Duration cap)
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

    /** Up to {@code reps} timed runs; not recorded yet. */
    Outcome measure(SystemUnderTest sut, Workload workload, InsertStream stream, int reps, Duration cap) throws Exception {
        List<Long> times = new ArrayList<>();
        List<Long> cpuTimes = new ArrayList<>();
        RunResult last = null;
        RunResult capped = null;
        for (int r = 0; r < reps; r++) {
            System.gc();
            last = sut.run(workload, stream, cap);
            if (!last.completed()) {
                capped = last;
                break;
            }
            times.add(last.elapsedNanos());
            cpuTimes.add(last.cpuNanos());
        }
        int n = stream.size();
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
        Measurement m = new Measurement(workload.name(), sut.name(), stream.distribution().label(), n, ns,
                ns.reciprocal(1e9), cpu, state.stateSize(), state.stateUnit(), seconds, times.isEmpty() ? 1 : times.size(), note);
        return new Outcome(m, times.isEmpty() ? capped : last);
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int k = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(k) : (sorted.get(k - 1) + sorted.get(k)) / 2;
    }

    /** Adds a measurement to the report and to results.csv, and prints a progress line. */
    void record(Measurement m) throws IOException {
        recorded.add(m);
        csv.append(m);
        out.println("  " + m.system() + " " + m.distribution() + " n=" + m.n() + ": " + m.nsPerInsert().format()
                + " ns/insert (cpu " + m.cpuNsPerInsert().format() + "), " + m.insertsPerSecond().format() + " inserts/s, "
                + Report.seconds(m.seconds()) + " per run (" + m.runs() + (m.runs() == 1 ? " run" : " runs") + ")"
                + (m.note().isEmpty() ? "" : ", " + m.note()));
        out.flush();
    }
}
