package io.flinkivm.flink.common;

import io.flinkivm.core.engine.maps.KeyValueState;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.MapState;

/** A Flink {@link MapState} (scoped to the current key) as core's {@link KeyValueState}. */
@Internal
public final class MapStateAdapter<K, V> implements KeyValueState<K, V> {
    private final MapState<K, V> state;
    private final String name;

    public MapStateAdapter(MapState<K, V> state, String name) {
        this.state = state;
        this.name = name;
    }

    @Override
    public V get(K key) {
        try {
            return state.get(key);
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + name, e);
        }
    }

    @Override
    public void put(K key, V value) {
        try {
            state.put(key, value);
        } catch (Exception e) {
            throw new StateAccessException("cannot write state " + name, e);
        }
    }

    @Override
    public void remove(K key) {
        try {
            state.remove(key);
        } catch (Exception e) {
            throw new StateAccessException("cannot write state " + name, e);
        }
    }

    /** All entries for the current key. */
    public Iterator<Map.Entry<K, V>> entries() {
        try {
            return state.iterator();
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + name, e);
        }
    }

    /** Removes every entry of the current key. */
    public void clear() {
        state.clear();
    }

    /** Whether the current key has no entries. */
    public boolean isEmpty() {
        try {
            return state.isEmpty();
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + name, e);
        }
    }
}
