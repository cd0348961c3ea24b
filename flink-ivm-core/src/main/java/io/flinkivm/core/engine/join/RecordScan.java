package io.flinkivm.core.engine.join;

import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/**
 * A forward scan over the live records of the join's root ({@link JoinRecordStore#liveRecords}),
 * without an object per step: {@link #next} moves, {@link #tuple} and {@link #record} read the current
 * one. A scan may also keep, per root tuple, a few <em>slots</em>: the tuples and records that a walk
 * reached from it by key (a child whose key is its whole tuple has one tuple per key, and it never
 * changes in an insert-only join), so that the next walk finds them without a lookup.
 *
 * @param <T> the payload type
 */
@Internal
public interface RecordScan<T> {
    /** Moves to the next record; false at the end (then nothing is current). */
    boolean next();

    /** The current record's tuple. */
    Tuple tuple();

    /** The current record. */
    JoinRecord<T> record();

    /** The record remembered in slot {@code slot} of the current root tuple, or null (none, or not kept). */
    default JoinRecord<T> slotRecord(int slot) {
        return null;
    }

    /** The tuple remembered in slot {@code slot} of the current root tuple (with {@link #slotRecord}). */
    default Tuple slotTuple(int slot) {
        return null;
    }

    /** Remembers a tuple and its record in slot {@code slot} of the current root tuple (a scan may ignore it). */
    default void remember(int slot, Tuple tuple, JoinRecord<T> record) {}

    /**
     * Moves to the next live record whose slots no walk was given yet (a scan that remembers: those
     * that became live since an earlier scan of the store handed them out here), so that a walk can
     * {@link #remember} its slots before the results are read; false when none is left, and then
     * {@link #next} starts at the first record. Each record is handed out once over all scans of the
     * store; by default none.
     */
    default boolean nextToRemember() {
        return false;
    }

    /** Whether {@link #remember} keeps what it is given (else every walk looks its records up again). */
    default boolean remembers() {
        return false;
    }
}
