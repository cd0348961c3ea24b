package io.flinkivm.core.engine.viewtree;

import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/**
 * The join views of view trees as {@link ViewTreeLogic} reads and writes them: the in-memory engines
 * back it with hash maps, the Flink tree operator with keyed state. A walk numbers the views it
 * visits from step 0; a store may keep what it read at a step until the write of the same step.
 *
 * @param <T> the payload type
 */
@Internal
public interface ViewTreeStore<T> {
    /**
     * The child payloads of stateful view {@code node} at {@code key}, for reading only (each
     * {@code null} if the key has none yet). Valid until the next call of this method.
     */
    ChildPayloads<T> read(int step, int node, Tuple key);

    /**
     * Sets child {@code slot} of view {@code node} at {@code key} to {@code value}, creating the key if
     * it is absent; {@link #read} was called with the same step, node and key before. A null value is
     * a payload back at zero (only where payloads cancel: a ring's deletes, a semiring that is not
     * positive); a store drops the key once all of its children are null, so that the state stays the
     * size of the live data.
     */
    void write(int step, int node, Tuple key, int slot, T value);
}
