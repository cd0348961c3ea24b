package io.flinkivm.bench.soak;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Term;
import io.flinkivm.core.query.Variable;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.WindowSpec;
import io.flinkivm.core.window.Windows;
import io.flinkivm.flink.types.InputRecord;
import java.io.PrintWriter;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * The windows of a windowed soak: every relation of the query is windowed by the same {@link WindowSpec}
 * on its rows' last column, whose event time the {@link EventClock} gives. Every atom ends with the same
 * two variables, window_start and window_end, so the query falls apart into one independent query per
 * window; the head holds the window (window_start, and for CUMULATE, whose windows share their start,
 * window_end too), so each window's rows of the result are known, and the sink is keyed by it.
 *
 * <p>This is what lets the soak check a stream too long to keep: the Flink job emits each window's
 * groups once, final, and {@link #check} replays the stream in event order into one in-memory engine
 * per open window, compares each window's digest ({@link WindowDigests}) when no later insert can
 * reach it, and drops it.
 */
public final class SoakWindows implements Serializable {
    private static final long serialVersionUID = 1L;

    private final WindowSpec spec;
    private final EventClock clock;
    private final Windows windows;
    /** The head's positions of its window variables, in head order. */
    private final int[] positions;

    private SoakWindows(WindowSpec spec, EventClock clock, Windows windows, int[] positions) {
        this.spec = spec;
        this.clock = clock;
        this.windows = windows;
        this.positions = positions;
    }

    /** The assignment per relation, for {@code IvmOptions.withWindows}. */
    public Windows windows() {
        return windows;
    }

    /** The inserts' event time. */
    public EventClock clock() {
        return clock;
    }

    /**
     * The windows of {@code query}.
     *
     * @throws IllegalArgumentException saying what the query lacks
     */
    public static SoakWindows of(ConjunctiveQuery query, WindowSpec spec, EventClock clock) {
        String start = null;
        String end = null;
        Windows windows = Windows.NONE;
        for (Atom a : query.body()) {
            int n = a.arity();
            if (n < 3) {
                throw new IllegalArgumentException("a windowed soak's atoms end with window_start and window_end after"
                        + " at least one column (the event time), but " + a + " has " + n + " terms");
            }
            String s = variable(a.terms().get(n - 2));
            String e = variable(a.terms().get(n - 1));
            if (s == null || e == null || s.equals(e) || (start != null && (!start.equals(s) || !end.equals(e)))) {
                throw new IllegalArgumentException("a windowed soak needs the same two variables, window_start and"
                        + " window_end, at the end of every atom (e.g. Q(W,S) :- bid(A,T,W,E), auction(A,S,U,W,E)),"
                        + " but " + a + " ends with " + a.terms().get(n - 2) + ", "
                        + a.terms().get(n - 1));
            }
            start = s;
            end = e;
            windows = windows.with(WindowAssignment.of(a.relation(), WindowAssignment.inputArity(n) - 1, spec));
        }
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i < query.head().size(); i++) {
            String v = query.head().get(i);
            if (v.equals(start) || v.equals(end)) {
                at.add(i);
            }
        }
        boolean hasStart = query.head().contains(start);
        boolean hasEnd = query.head().contains(end);
        if (spec.kind() == WindowSpec.Kind.CUMULATE ? !hasEnd : !hasStart && !hasEnd) {
            throw new IllegalArgumentException("a windowed soak collects each window's result, so its head must hold "
                    + (spec.kind() == WindowSpec.Kind.CUMULATE
                            ? "window_end (" + end + "): CUMULATE's windows share their start"
                            : "window_start (" + start + ") or window_end (" + end + ")"));
        }
        return new SoakWindows(
                spec, clock, windows, at.stream().mapToInt(Integer::intValue).toArray());
    }

    private static String variable(Term t) {
        return t instanceof Variable v ? v.name() : null;
    }

    /** An empty digest of this query's results, per window. */
    WindowDigests digests() {
        return new WindowDigests(positions);
    }

    /** One line for the soak's report. */
    String describe() {
        return String.format(
                Locale.ROOT,
                "%s on every relation's last column; %,d inserts per second of event time, out of order by up to"
                        + " %d ms, watermarks %d ms behind; each window's groups emitted once, final",
                spec,
                clock.perSecond(),
                clock.disorder(),
                clock.disorder());
    }

    /**
     * Replays the stream in event order into one engine per window, and compares each window's result
     * with the Flink job's ({@code flink}); prints the outcome.
     *
     * @return whether every window's result is the same
     */
    <T> boolean check(
            MaintenancePlan plan, Semiring<T> semiring, SoakStream<T> stream, WindowDigests flink, PrintWriter out) {
        long began = System.nanoTime();
        WindowDigests engine = digests();
        // Open windows by (end, start): a window is complete once no later insert's time can be before its end.
        TreeMap<List<Long>, IvmEngine<T>> open = new TreeMap<>((a, b) -> {
            int c = Long.compare(a.get(0), b.get(0));
            return c != 0 ? c : Long.compare(a.get(1), b.get(1));
        });
        long[] starts = new long[spec.maxWindows()];
        long[] ends = new long[spec.maxWindows()];
        long n = stream.count();
        int largest = 0;
        for (long j = 0; j < n; j++) {
            InputRecord<T> r = stream.recordAt(j);
            WindowAssignment a = windows.of(r.relation());
            int k = spec.assign(a.millis(r.tuple()), starts, ends);
            for (int w = 0; w < k; w++) {
                open.computeIfAbsent(List.of(ends[w], starts[w]), key -> Engines.create(plan, semiring))
                        .insert(r.relation(), a.withWindow(r.tuple(), starts[w], ends[w]), r.payload());
            }
            largest = Math.max(largest, open.size());
            long earliest = j + 1 < n ? clock.baseMillis(j + 1) - clock.disorder() : Long.MAX_VALUE;
            while (!open.isEmpty() && open.firstKey().get(0) <= earliest) {
                digest(open.pollFirstEntry().getValue(), engine);
            }
        }
        long seconds = (System.nanoTime() - began) / 1_000_000_000L;
        List<String> differences = flink.differences(engine, "Flink", "engine", SoakProgressReport.SHOWN_DIFFERENCES);
        if (differences.isEmpty()) {
            out.printf(
                    Locale.ROOT,
                    "Check: the Flink result equals the in-memory engine's on the same stream, window by window"
                            + " (%,d windows, %,d tuples; the engines took %d s, at most %d windows open)%n",
                    engine.windows(),
                    engine.tuples(),
                    seconds,
                    largest);
            out.flush();
            return true;
        }
        out.printf(
                Locale.ROOT,
                "Check FAILED: the Flink result differs from the in-memory engine's in %s (Flink %,d tuples in %,d"
                        + " windows, engine %,d in %,d):%n",
                differences.size() > SoakProgressReport.SHOWN_DIFFERENCES ? "many windows" : "these windows",
                flink.tuples(),
                flink.windows(),
                engine.tuples(),
                engine.windows());
        differences.forEach(d -> out.println("  " + d));
        out.flush();
        return false;
    }

    private static <T> void digest(IvmEngine<T> window, WindowDigests into) {
        Iterator<ResultTuple<T>> it = window.enumerate();
        while (it.hasNext()) {
            ResultTuple<T> t = it.next();
            into.add(t.tuple(), t.payload());
        }
    }
}
