package io.flinkivm.sql.translate;

import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.WindowSpec;

/**
 * A window table function in FROM ({@code TABLE(TUMBLE(TABLE bid, DESCRIPTOR(dateTime), INTERVAL '10'
 * SECOND))}): its windows, the table's event-time column, and the table's own number of columns (the
 * alias's columns {@code window_start} and {@code window_end} come after them).
 */
record WindowCall(WindowSpec spec, int timeColumn, int columns) {

    /** The names of the columns a window table function adds, in order. */
    static final String START = "window_start";

    static final String END = "window_end";

    /** Whether column {@code index} of the alias is one of the window's columns. */
    boolean isWindowColumn(int index) {
        return index == columns || index == columns + 1;
    }

    /**
     * The window assignment of a relation whose tuples hold the event time at {@code position}, a
     * TIMESTAMP(p) (held in microseconds, or nanoseconds above precision 6).
     */
    WindowAssignment assignment(String relation, int position, SqlType timeType) {
        return new WindowAssignment(relation, position, spec, 0, timeType.precision() > 6 ? 1_000_000 : 1_000);
    }
}
