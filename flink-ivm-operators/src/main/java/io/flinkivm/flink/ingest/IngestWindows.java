package io.flinkivm.flink.ingest;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.Windows;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.types.InputRecord;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.OperatorStateStore;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.metrics.Counter;

/**
 * An ingest subtask's windows ({@link IngestOperator}): the event-time watermark of its input, which
 * decides which rows of windowed relations are late, and, per row of a windowed relation, the windows
 * still open at it. The watermark is checkpointed as union operator state ({@link
 * StateNames#INGEST_EVENT_TIME}): restored, a replay rejects the rows the first run did (a source's
 * watermark generator starts over); rescaled, every subtask starts from the smallest. Made in the
 * operator's {@code initializeState}, opened in its {@code open}; not thread-safe.
 */
final class IngestWindows {
    private final Windows windows;
    /** Per relation (as the router numbers them): its window assignment, or null. */
    private WindowAssignment[] windowOf = new WindowAssignment[0];
    /** The windows of the row being routed, in the order they end, and the first of them still open. */
    private long[] starts = new long[0];

    private long[] ends = new long[0];
    private int from;
    private int count;
    /** The largest event-time watermark of this subtask's input (its timestamps' lower bound from now on). */
    private long eventWatermark = Long.MIN_VALUE;
    /** Per subtask (its index, its {@link #eventWatermark}), for jobs with windows; null without. */
    private ListState<Tuple2<Integer, Long>> state;

    private Counter late;

    IngestWindows(Windows windows) {
        this.windows = windows;
    }

    /**
     * Restores the watermark of subtask {@code subtask} (the smallest of all when the parallelism changed);
     * registers its state only for a job with windows.
     */
    void restore(OperatorStateStore store, int subtask, boolean sameParallelism) throws Exception {
        if (windows.isEmpty()) {
            return;
        }
        state = store.getUnionListState(
                new ListStateDescriptor<>(StateNames.INGEST_EVENT_TIME, new TupleTypeInfo<>(Types.INT, Types.LONG)));
        List<Tuple2<Integer, Long>> marks = new ArrayList<>();
        state.get().forEach(marks::add);
        long smallest = Long.MAX_VALUE;
        for (Tuple2<Integer, Long> m : marks) {
            smallest = Math.min(smallest, m.f1);
            if (sameParallelism && m.f0 == subtask) {
                eventWatermark = m.f1;
            }
        }
        if (!marks.isEmpty() && !sameParallelism) {
            eventWatermark = smallest;
        }
    }

    /** Writes subtask {@code subtask}'s watermark for the checkpoint (a job with windows). */
    void snapshot(int subtask) throws Exception {
        if (state != null) {
            state.update(List.of(Tuple2.of(subtask, eventWatermark)));
        }
    }

    /** Looks the windows up by the router's relation numbers; counts late rows in {@code late}. */
    void open(List<String> relations, Counter late) {
        this.late = late;
        windowOf = new WindowAssignment[relations.size()];
        int most = 0;
        for (WindowAssignment w : windows.assignments()) {
            windowOf[relations.indexOf(w.relation())] = w;
            most = Math.max(most, w.spec().maxWindows());
        }
        starts = new long[most];
        ends = new long[most];
    }

    /** The window assignment of relation {@code relation} (the router's number, or -1), or null. */
    WindowAssignment of(int relation) {
        return relation < 0 || windows.isEmpty() ? null : windowOf[relation];
    }

    /** Moves the event-time watermark up to {@code watermark} (never down). */
    void advance(long watermark) {
        eventWatermark = Math.max(eventWatermark, watermark);
    }

    /** The event-time watermark of this subtask's input. */
    long eventWatermark() {
        return eventWatermark;
    }

    /**
     * Takes the windows of {@code tuple} of {@code window}'s relation that are still open: {@link #from}
     * to {@link #count}. Returns null, or the reason the row is late (all its windows closed), counted.
     */
    String assign(WindowAssignment window, Tuple tuple) {
        long millis = window.millis(tuple);
        if (window.isLate(millis, eventWatermark)) {
            late.inc();
            return window.lateReason(millis, eventWatermark);
        }
        // The row's windows that are still open, in the order they end (the closed ones come first).
        count = window.spec().assign(millis, starts, ends);
        from = 0;
        while (!window.isOpen(ends[from], eventWatermark)) {
            from++;
        }
        return null;
    }

    /** The first open window of the last {@link #assign}. */
    int from() {
        return from;
    }

    /** The windows of the last {@link #assign}, closed ones included. */
    int count() {
        return count;
    }

    /** {@code tuple} with the {@code i}-th window of the last {@link #assign} appended. */
    Tuple withWindow(WindowAssignment window, Tuple tuple, int i) {
        return window.withWindow(tuple, starts[i], ends[i]);
    }

    /**
     * Why {@code r}, a row of {@code window}'s relation in {@code query}, cannot be an insert (a delete,
     * no tuple or payload, a wrong arity or time, a payload of another type), or null: a windowed
     * relation's rows have two values fewer than its atoms (they add window_start and window_end).
     */
    static <T> String problem(InputRecord<T> r, WindowAssignment window, ConjunctiveQuery query, Semiring<T> semiring) {
        if (r.isRetraction()) {
            return "a " + r.kind().shortString() + " of " + r.relation() + r.tuple() + ", but " + r.relation()
                    + " is windowed, and windowed relations are insert-only";
        }
        if (r.tuple() == null) {
            return "insert without relation or tuple";
        }
        int columns = WindowAssignment.inputArity(query.arityOf(r.relation()));
        if (r.tuple().arity() != columns) {
            return "relation " + r.relation() + " is windowed: its rows have " + columns
                    + " values (its atoms add window_start and window_end), got "
                    + r.tuple().arity();
        }
        String problem = window.problem(r.tuple());
        if (problem != null) {
            return problem;
        }
        if (r.payload() == null) {
            return "insert without payload";
        }
        if (!semiring.payloadClass().isInstance(r.payload())) {
            return "payload " + r.payload() + " is not a " + semiring.name() + " payload";
        }
        return null;
    }
}
