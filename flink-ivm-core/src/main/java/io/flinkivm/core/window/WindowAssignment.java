package io.flinkivm.core.window;

import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.time.Instant;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The windows of one relation: its rows' event time is the value at {@code timeColumn} (a long in
 * {@code unitsPerMilli} units per millisecond: 1 for epoch milliseconds, 1,000 for a SQL {@code
 * TIMESTAMP} of precision up to 6, which tuples hold in microseconds), and each row becomes one row per
 * window it belongs to, with {@code window_start} and {@code window_end} (in the time column's units)
 * appended as its last two columns.
 *
 * <p>A window has <em>closed</em> when its end - 1 ms + {@code lateness} is at most the event-time
 * watermark the row's input has reached. A row goes into those of its windows that are open; it is
 * <em>late</em> when all of them have closed (the last to close has), as Flink SQL's window aggregates
 * decide: a HOP or CUMULATE row whose first windows closed still counts in the others.
 *
 * @param relation the relation whose rows are windowed
 * @param timeColumn the position (from 0) of the rows' event time
 * @param spec the windows
 * @param lateness how long after its end a window still takes rows, in milliseconds (0: none)
 * @param unitsPerMilli the time column's units per millisecond: 1, 1,000 or 1,000,000
 */
@PublicEvolving
public record WindowAssignment(String relation, int timeColumn, WindowSpec spec, long lateness, long unitsPerMilli)
        implements Serializable {

    public WindowAssignment {
        if (relation == null || relation.isEmpty()) {
            throw new IllegalArgumentException("a window assignment needs a relation");
        }
        if (timeColumn < 0) {
            throw new IllegalArgumentException("the time column of " + relation + " must be >= 0, got " + timeColumn);
        }
        if (spec == null) {
            throw new IllegalArgumentException("the window of " + relation + " must not be null");
        }
        if (lateness < 0) {
            throw new IllegalArgumentException(
                    "the allowed lateness of " + relation + " must be >= 0, got " + lateness);
        }
        if (unitsPerMilli != 1 && unitsPerMilli != 1_000 && unitsPerMilli != 1_000_000) {
            throw new IllegalArgumentException(
                    "the time column's units per millisecond must be 1, 1000 or 1000000, got " + unitsPerMilli);
        }
    }

    /** Rows whose time column holds epoch milliseconds, no allowed lateness. */
    public static WindowAssignment of(String relation, int timeColumn, WindowSpec spec) {
        return new WindowAssignment(relation, timeColumn, spec, 0, 1);
    }

    /** A copy whose windows take rows {@code millis} after their end. */
    public WindowAssignment withLateness(long millis) {
        return new WindowAssignment(relation, timeColumn, spec, millis, unitsPerMilli);
    }

    /** The arity of the relation's rows as they arrive, given the arity of its atoms (two window columns less). */
    public static int inputArity(int atomArity) {
        return atomArity - 2;
    }

    /**
     * Why {@code row} has no event time (too short, or no long at the time column), or null. The
     * message names the relation, the column and the value.
     */
    public String problem(Tuple row) {
        if (row.arity() <= timeColumn) {
            return relation + " is windowed on column " + timeColumn + ", but the row " + row + " has " + row.arity()
                    + " columns";
        }
        Object t = row.get(timeColumn);
        if (!(t instanceof Long)) {
            return "the time column " + timeColumn + " of " + relation + " holds " + t
                    + (t == null ? "" : " (" + t.getClass().getSimpleName() + ")")
                    + ", not a timestamp (a long)";
        }
        return null;
    }

    /** The event time of {@code row} in milliseconds (rounded down); {@link #problem} must be null. */
    public long millis(Tuple row) {
        return Math.floorDiv((Long) row.get(timeColumn), unitsPerMilli);
    }

    /** Whether the window ending at {@code end} (milliseconds) is still open at watermark {@code watermark}. */
    public boolean isOpen(long end, long watermark) {
        return end - 1 + lateness > watermark;
    }

    /** Whether a row at {@code millis} is late (all its windows closed) once its input's watermark reached {@code watermark}. */
    public boolean isLate(long millis, long watermark) {
        return !isOpen(spec.lastEnd(millis), watermark);
    }

    /** The dead letter's reason for a row at {@code millis} that is late at watermark {@code watermark}: its last window. */
    public String lateReason(long millis, long watermark) {
        long[] starts = new long[spec.maxWindows()];
        long[] ends = new long[spec.maxWindows()];
        int last = spec.assign(millis, starts, ends) - 1;
        return "late: window [" + Instant.ofEpochMilli(starts[last]) + ", " + Instant.ofEpochMilli(ends[last])
                + ") closed at watermark " + Instant.ofEpochMilli(watermark)
                + (lateness == 0 ? "" : " (allowed lateness " + WindowSpec.millis(lateness) + ")");
    }

    /** {@code row} with the window {@code [start, end)} (milliseconds) appended, in the time column's units. */
    public Tuple withWindow(Tuple row, long start, long end) {
        int n = row.arity();
        Object[] values = new Object[n + 2];
        for (int i = 0; i < n; i++) {
            values[i] = row.get(i);
        }
        values[n] = start * unitsPerMilli;
        values[n + 1] = end * unitsPerMilli;
        return Tuple.wrap(values);
    }

    /** One line: the relation, its window, its time column and what becomes of a row. */
    public String describe(int atomArity) {
        int n = inputArity(atomArity);
        return relation + ": " + spec + " on column " + timeColumn + "; window_start, window_end are columns " + n
                + ", " + (n + 1)
                + (spec.maxWindows() == 1
                        ? "; one insert per row"
                        : "; one insert per window, " + spec.maxWindows() + " per row")
                + (lateness == 0 ? "" : "; allowed lateness " + WindowSpec.millis(lateness));
    }
}
