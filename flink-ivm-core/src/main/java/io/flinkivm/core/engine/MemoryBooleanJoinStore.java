package io.flinkivm.core.engine;

import io.flinkivm.core.query.Tuple;

/** A {@link BooleanJoinStore} in hash maps. */
final class MemoryBooleanJoinStore implements BooleanJoinStore {
    private final MapState<Tuple, Tuple>[] liveHead;
    private final MapState<Tuple, Tuple>[] liveNext;
    private final MapState<Tuple, Tuple>[][] waitHead;
    private final MapState<Tuple, Tuple>[][] waitNext;
    private final MapState<Tuple, Integer>[] missing;

    @SuppressWarnings("unchecked")
    MemoryBooleanJoinStore(CompiledPlan plan) {
        int n = plan.treeCount();
        liveHead = new MapState[n];
        liveNext = new MapState[n];
        waitHead = new MapState[n][];
        waitNext = new MapState[n][];
        missing = new MapState[n];
        for (int i = 0; i < n; i++) {
            liveHead[i] = new MapState<>();
            liveNext[i] = new MapState<>();
            missing[i] = new MapState<>();
            int kids = plan.joinChildren(i).length;
            waitHead[i] = new MapState[kids];
            waitNext[i] = new MapState[kids];
            for (int c = 0; c < kids; c++) {
                waitHead[i][c] = new MapState<>();
                waitNext[i][c] = new MapState<>();
            }
        }
    }

    @Override
    public KeyValueState<Tuple, Tuple> liveHead(int node) {
        return liveHead[node];
    }

    @Override
    public KeyValueState<Tuple, Tuple> liveNext(int node) {
        return liveNext[node];
    }

    @Override
    public KeyValueState<Tuple, Tuple> waitHead(int node, int child) {
        return waitHead[node][child];
    }

    @Override
    public KeyValueState<Tuple, Tuple> waitNext(int node, int child) {
        return waitNext[node][child];
    }

    @Override
    public KeyValueState<Tuple, Integer> missing(int node) {
        return missing[node];
    }

    /** Number of entries over all maps (a state-size figure). */
    long entries() {
        long total = 0;
        for (int i = 0; i < liveHead.length; i++) {
            total += liveHead[i].size() + liveNext[i].size() + missing[i].size();
            for (int c = 0; c < waitHead[i].length; c++) {
                total += waitHead[i][c].size() + waitNext[i][c].size();
            }
        }
        return total;
    }

    /** Number of live tuples at join-tree node {@code node}. */
    long liveCount(int node) {
        return liveHead[node].size() + liveNext[node].size();
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
