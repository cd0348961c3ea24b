package io.flinkivm.core.engine.maps;

import org.apache.flink.annotation.Internal;

/**
 * A map-like piece of state: a hash map in memory, a {@code MapState} in Flink.
 *
 * @param <K> key type
 * @param <V> value type
 */
@Internal
public interface KeyValueState<K, V> {
    /** The value for {@code key}, or {@code null}. */
    V get(K key);

    void put(K key, V value);

    void remove(K key);
}
