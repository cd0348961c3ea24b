package io.flinkivm.core.engine;

import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.List;

/** A {@link BooleanJoinStore} in hash maps. */
final class MemoryBooleanJoinStore extends BooleanJoinMaps {
    private final Maps maps;

    MemoryBooleanJoinStore(JoinLayout layout) {
        this(layout, new Maps());
    }

    private MemoryBooleanJoinStore(JoinLayout layout, Maps maps) {
        super(layout, maps);
        this.maps = maps;
    }

    /** Number of entries over all maps (a state-size figure). */
    long entries() {
        return maps.entries();
    }

    /** Makes hash maps and remembers them, for {@link #entries()}. */
    static final class Maps implements MapFactory {
        private final List<MapState<?, ?>> made = new ArrayList<>();

        private <V> MapState<Tuple, V> make() {
            MapState<Tuple, V> m = new MapState<>();
            made.add(m);
            return m;
        }

        @Override
        public KeyValueState<Tuple, Tuple> tuples(String name) {
            return make();
        }

        @Override
        public KeyValueState<Tuple, Integer> counts(String name) {
            return make();
        }

        @Override
        public KeyValueState<Tuple, Boolean> flags(String name) {
            return make();
        }

        long entries() {
            long total = 0;
            for (MapState<?, ?> m : made) {
                total += m.size();
            }
            return total;
        }
    }

    /** A hash map as {@link KeyValueState}. */
    static final class MapState<K, V> implements KeyValueState<K, V> {
        private final OpenHashMap<K, V> map = new OpenHashMap<>();

        @Override
        public V get(K key) {
            return map.get(key);
        }

        @Override
        public void put(K key, V value) {
            map.put(key, value);
        }

        @Override
        public void remove(K key) {
            map.remove(key);
        }

        int size() {
            return map.size();
        }

        java.util.Iterator<java.util.Map.Entry<K, V>> entries() {
            return map.entries();
        }
    }
}
