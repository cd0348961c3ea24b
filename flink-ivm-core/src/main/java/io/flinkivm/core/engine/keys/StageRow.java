package io.flinkivm.core.engine.keys;

import io.flinkivm.core.query.Tuple;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * A row on its way through the key stages: a row of the stage's own relation ({@link #isKeyRow()}),
 * kept or dropped by its atoms' selection ({@link #isDropped()}), or a row of an enriched atom at one
 * step of its lookups, waiting in the stage if its key row has not arrived.
 *
 * @param atom the enriched atom (its index in the body), {@link #KEY_ROW} or {@link #DROPPED}
 * @param step which of the atom's lookups is next (0 for a key row)
 * @param values a key row: the relation tuple; an enriched atom's row: its relation tuple followed by
 *     the values of the lookups so far
 * @param payload the insert's payload (never zero); under deletes the change's (a delete's: the
 *     inverse of what it takes away)
 * @param origin where the insert came from (for dead letters), or null
 * @param retraction whether the change takes a payload away (a delete, or an update's old row): a key
 *     row that does so leaves its key value, where an insert would break the key
 */
@Internal
public record StageRow<T>(int atom, int step, Tuple values, T payload, String origin, boolean retraction) {
    /** The {@link #atom()} of a row of the stage's own relation. */
    public static final int KEY_ROW = -1;

    /**
     * The {@link #atom()} of a row of the stage's relation that its atoms' selection (or, in SQL, its
     * table's filter) drops: the stage keeps a mark of it, so rows that look it up are dropped at once.
     */
    public static final int DROPPED = -2;

    public StageRow {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(payload, "payload");
    }

    /** An insert's row (no retraction). */
    public StageRow(int atom, int step, Tuple values, T payload, String origin) {
        this(atom, step, values, payload, origin, false);
    }

    /** This row at {@code nextStep} with {@code nextValues} and {@code nextPayload}, a retraction if it is one. */
    public StageRow<T> next(int nextStep, Tuple nextValues, T nextPayload) {
        return new StageRow<>(atom, nextStep, nextValues, nextPayload, origin, retraction);
    }

    /** A row of the stage's relation. */
    public static <T> StageRow<T> keyRow(Tuple row, T payload, String origin) {
        return new StageRow<>(KEY_ROW, 0, row, payload, origin);
    }

    /** A dropped row of the stage's relation, which the stage keeps as a mark. */
    public static <T> StageRow<T> dropped(Tuple row, T payload, String origin) {
        return new StageRow<>(DROPPED, 0, row, payload, origin);
    }

    /** Whether this is a row of the stage's relation (kept or dropped). */
    public boolean isKeyRow() {
        return atom < 0;
    }

    /** Whether this is a row of the stage's relation that its selection or filter dropped. */
    public boolean isDropped() {
        return atom == DROPPED;
    }
}
