package io.flinkivm.core.engine.viewtree;

import org.apache.flink.annotation.Internal;

/**
 * The state of one join view at one key: the payload of each child slot. The in-memory engine backs
 * it with an array, a Flink operator with keyed state scoped to the current key.
 *
 * @param <T> the payload type
 */
@Internal
public interface ChildPayloads<T> {
    /** The payload of child {@code slot}, or {@code null} if it has none yet (zero). */
    T get(int slot);

    /** Stores the payload of child {@code slot}. */
    void set(int slot, T payload);
}
