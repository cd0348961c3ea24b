package io.flinkivm.core.engine.keys;

import io.flinkivm.core.query.Tuple;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * The state of one key stage as {@link KeyStageLogic} reads and writes it: per key value, the row
 * stored under it (with its payload, or a mark that it was dropped) and the rows waiting for it. The in-memory engine backs it with hash maps, the
 * Flink key stage operator with keyed state (keyed by the key value, so it may ignore {@code key}).
 *
 * @param <T> the payload type
 */
@Internal
public interface KeyStageStore<T> {
    /** The row stored under {@code key}, or null. */
    KeyRow<T> keyRow(Tuple key);

    /** Stores {@code row} under {@code key}, which holds none yet. */
    void putKeyRow(Tuple key, KeyRow<T> row);

    /** Adds {@code row} to the rows waiting for {@code key}'s row. */
    void addWaiting(Tuple key, StageRow<T> row);

    /** The rows waiting for {@code key}'s row, in the order they came, and forgets them (empty if none). */
    List<StageRow<T>> takeWaiting(Tuple key);

    /** Under deletes: forgets the row stored under {@code key}. */
    void removeKeyRow(Tuple key);

    /**
     * Under deletes: the payload of the row {@code reference} (an atom, its lookup step and its values,
     * {@link KeyStageLogic#reference}) that looks {@code key} up, or null.
     */
    T reference(Tuple key, Tuple reference);

    /** Under deletes: sets the payload of {@code reference} under {@code key} (null: forgets it). */
    void putReference(Tuple key, Tuple reference, T payload);

    /** Under deletes: the rows that look {@code key} up, with their payloads (empty if none). */
    List<Map.Entry<Tuple, T>> references(Tuple key);
}
