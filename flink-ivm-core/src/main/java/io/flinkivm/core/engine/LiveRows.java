package io.flinkivm.core.engine;

import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import java.io.Serializable;
import org.apache.flink.annotation.Internal;

/**
 * The rows of a relation with deletes, each with its payload (the sum of its inserts minus its deletes),
 * kept so that a delete can be checked before it changes anything: a delete of a row that is not there,
 * or of more than the row holds ({@link Ring#canRemove}), is rejected ({@link AbsentRowException}). One
 * lookup per change; a row whose payload returns to zero is removed, so this state is the size of the
 * live rows. Written against a {@link KeyValueState} per relation, for the in-memory engines and a Flink
 * operator alike (as Flink's ChangelogNormalize keeps the last row per key).
 *
 * @param <T> the payload type
 */
@Internal
public final class LiveRows<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Ring<T> ring;

    public LiveRows(Ring<T> ring) {
        this.ring = ring;
    }

    /**
     * The row's payload after an insert of {@code payload} (null: it is gone, its payload cancelled), or
     * after a delete of it ({@code delete}); nothing is written.
     *
     * @throws AbsentRowException for a delete of a row that does not hold {@code payload}
     * @throws ArithmeticException if the sum overflows
     */
    public T after(KeyValueState<Tuple, T> rows, String relation, Tuple tuple, T payload, boolean delete) {
        return after(rows, tuple, relation, tuple, payload, delete);
    }

    /**
     * As {@link #after(KeyValueState, String, Tuple, Object, boolean)}, for a row kept under
     * another key: {@code key} (e.g. the tuple an atom with a selection keeps of it); a rejection names
     * {@code tuple}.
     */
    public T after(KeyValueState<Tuple, T> rows, Tuple key, String relation, Tuple tuple, T payload, boolean delete) {
        T present = rows.get(key);
        if (delete) {
            if (present == null) {
                throw new AbsentRowException("delete of " + relation + tuple + " with payload " + ring.format(payload)
                        + ": " + relation + " holds no such row; the delete is rejected and changes nothing");
            }
            if (!ring.canRemove(present, payload)) {
                throw new AbsentRowException("delete of " + relation + tuple + " with payload " + ring.format(payload)
                        + ": the row holds " + ring.format(present) + ", a delete takes away part of that at most;"
                        + " the delete is rejected and changes nothing");
            }
        }
        T delta = delete ? ring.negate(payload) : payload;
        T updated = present == null ? delta : ring.plus(present, delta);
        return ring.isZero(updated) ? null : updated;
    }

    /** Writes what {@link #after} returned. */
    public void write(KeyValueState<Tuple, T> rows, Tuple tuple, T updated) {
        if (updated == null) {
            rows.remove(tuple);
        } else {
            rows.put(tuple, updated);
        }
    }

    /** The inverse of {@code payload}, what a delete inserts. */
    public T inverse(T payload) {
        return ring.negate(payload);
    }
}
