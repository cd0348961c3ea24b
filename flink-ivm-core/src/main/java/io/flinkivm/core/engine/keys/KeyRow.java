package io.flinkivm.core.engine.keys;

import io.flinkivm.core.query.Tuple;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * What a key stage keeps under a key value: the first row with it and that row's payload, which an
 * absorbing lookup multiplies into the rows that look it up; or, for a row that its atoms' selection
 * (or, in SQL, its table's filter) drops, a mark that the key value's row is dropped, so that the rows
 * that look it up are dropped at once instead of waiting for good.
 *
 * @param values the row (for a mark too, so that a violation can name it)
 * @param payload the row's payload; null for a mark
 * @param dropped whether this is the mark of a dropped row
 */
@Internal
public record KeyRow<T>(Tuple values, T payload, boolean dropped) {
    public KeyRow {
        Objects.requireNonNull(values, "values");
        if (dropped != (payload == null)) {
            throw new IllegalArgumentException("a kept key row has a payload, a dropped one has none");
        }
    }

    /** A kept row with its payload. */
    public static <T> KeyRow<T> kept(Tuple values, T payload) {
        return new KeyRow<>(values, Objects.requireNonNull(payload, "payload"), false);
    }

    /** The mark of a dropped row. */
    public static <T> KeyRow<T> droppedRow(Tuple values) {
        return new KeyRow<>(values, null, true);
    }
}
