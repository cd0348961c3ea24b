package io.flinkivm.flink.common;

import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.query.Variable;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.Windows;
import java.io.Serializable;
import org.apache.flink.annotation.Internal;

/**
 * When the state of a keyed operator's Flink key can be dropped, for an operator keyed by a window
 * variable: the key's value at {@code position} is a {@code window_start} or {@code window_end} (in
 * the time column's units), and once the event time reaches {@link #closesAt} every window with that
 * value has closed at every ingest subtask, so no row reaches the key again.
 *
 * @param position the window variable's position in the Flink key
 * @param unitsPerMilli the window columns' units per millisecond
 * @param afterMillis how long after the value (in milliseconds) the last window with it closes: the
 *     largest of the window's size (at a {@code window_start}) or 0 (at a {@code window_end}) plus the
 *     allowed lateness, over the atoms that hold the variable
 */
@Internal
public record WindowClose(int position, long unitsPerMilli, long afterMillis) implements Serializable {

    /**
     * How keys whose value at {@code position} is variable {@code variable} close, or null when some
     * atom holds the variable outside the window columns of a windowed relation (rows with any value can
     * come at any time), or the windowed relations that hold it count time in different units.
     */
    public static WindowClose of(ConjunctiveQuery query, Windows windows, String variable, int position) {
        if (!windows.isClosing(query, variable)) {
            return null;
        }
        long units = 0;
        long after = -1;
        for (Atom a : query.body()) {
            WindowAssignment w = windows.of(a.relation());
            for (int i = 0; i < a.arity(); i++) {
                if (a.terms().get(i) instanceof Variable v && v.name().equals(variable)) {
                    units = w.unitsPerMilli();
                    after = Math.max(after, (i == a.arity() - 2 ? w.spec().size() : 0) + w.lateness());
                }
            }
        }
        return new WindowClose(position, units, after);
    }

    /**
     * The event time (milliseconds) at which the key's windows have all closed (a window closes when
     * its end - 1 ms + lateness is at most the watermark).
     */
    public long closesAt(Tuple key) {
        return Math.floorDiv((Long) key.get(position), unitsPerMilli) + afterMillis - 1;
    }
}
