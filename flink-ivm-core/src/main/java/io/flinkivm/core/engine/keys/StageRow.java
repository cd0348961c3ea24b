package io.flinkivm.core.engine.keys;

import io.flinkivm.core.query.Tuple;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * A row on its way through the key stages: a row of the stage's own relation ({@link #isKeyRow()}),
 * or a row of an enriched atom at one step of its lookups, waiting in the stage if its key row has
 * not arrived.
 *
 * @param atom the enriched atom (its index in the body), or {@link #KEY_ROW}
 * @param step which of the atom's lookups is next (0 for a key row)
 * @param values a key row: the relation tuple; an enriched atom's row: its relation tuple followed by
 *     the values of the lookups so far
 * @param payload the insert's payload (never zero)
 * @param origin where the insert came from (for dead letters), or null
 */
@Internal
public record StageRow<T>(int atom, int step, Tuple values, T payload, String origin) {
    /** The {@link #atom()} of a row of the stage's own relation. */
    public static final int KEY_ROW = -1;

    public StageRow {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(payload, "payload");
    }

    /** A row of the stage's relation. */
    public static <T> StageRow<T> keyRow(Tuple row, T payload, String origin) {
        return new StageRow<>(KEY_ROW, 0, row, payload, origin);
    }

    public boolean isKeyRow() {
        return atom == KEY_ROW;
    }
}
