package io.flinkivm.core.engine;

import io.flinkivm.core.engine.MemoryBooleanJoinStore.MapState;
import io.flinkivm.core.query.Tuple;

/** A {@link BagJoinStore} in hash maps. */
final class MemoryBagJoinStore implements BagJoinStore {
    private final MapState<Tuple, Boolean>[] projection;
    private final MapState<Tuple, Tuple>[] listHead;
    private final MapState<Tuple, Tuple>[] listNext;
    private final MapState<Tuple, Integer>[] listSize;
    private final MapState<Tuple, Tuple>[] liveHead;
    private final MapState<Tuple, Tuple>[] liveNext;
    private final MapState<Tuple, Tuple>[][] waitHead;
    private final MapState<Tuple, Tuple>[][] waitNext;
    private final MapState<Tuple, Integer>[] missing;

    @SuppressWarnings("unchecked")
    MemoryBagJoinStore(CompiledBagJoin layout) {
        projection = new MapState[layout.setCount()];
        for (int s = 0; s < projection.length; s++) {
            projection[s] = new MapState<>();
        }
        int lists = layout.listCount();
        listHead = new MapState[lists];
        listNext = new MapState[lists];
        listSize = new MapState[lists];
        for (int l = 0; l < lists; l++) {
            listHead[l] = new MapState<>();
            listNext[l] = new MapState<>();
            listSize[l] = new MapState<>();
        }
        int n = layout.nodeCount();
        liveHead = new MapState[n];
        liveNext = new MapState[n];
        waitHead = new MapState[n][];
        waitNext = new MapState[n][];
        missing = new MapState[n];
        for (int i = 0; i < n; i++) {
            liveHead[i] = new MapState<>();
            liveNext[i] = new MapState<>();
            missing[i] = new MapState<>();
            int kids = layout.joinChildren(i).length;
            waitHead[i] = new MapState[kids];
            waitNext[i] = new MapState[kids];
            for (int c = 0; c < kids; c++) {
                waitHead[i][c] = new MapState<>();
                waitNext[i][c] = new MapState<>();
            }
        }
    }

    @Override
    public KeyValueState<Tuple, Boolean> projection(int set) {
        return projection[set];
    }

    @Override
    public KeyValueState<Tuple, Tuple> listHead(int list) {
        return listHead[list];
    }

    @Override
    public KeyValueState<Tuple, Tuple> listNext(int list) {
        return listNext[list];
    }

    @Override
    public KeyValueState<Tuple, Integer> listSize(int list) {
        return listSize[list];
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
        for (MapState<Tuple, Boolean> m : projection) {
            total += m.size();
        }
        for (int l = 0; l < listHead.length; l++) {
            total += listHead[l].size() + listNext[l].size() + listSize[l].size();
        }
        for (int i = 0; i < liveHead.length; i++) {
            total += liveHead[i].size() + liveNext[i].size() + missing[i].size();
            for (int c = 0; c < waitHead[i].length; c++) {
                total += waitHead[i][c].size() + waitNext[i][c].size();
            }
        }
        return total;
    }
}
