package io.flinkivm.core.engine.join;

import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.query.Tuple;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;

/**
 * A {@link JoinRecordStore} in open-addressing hash maps whose records are live objects (an update is
 * free): the in-memory engines' store, and the Flink sink's on the heap backend (one per key group,
 * written to the checkpoint by its maps).
 *
 * @param <T> the payload type
 */
public final class MemoryJoinRecordStore<T> implements JoinRecordStore<T> {
    private final OpenHashMap<Tuple, JoinRecord<T>>[] records;
    private final OpenHashMap<Tuple, Tuple>[] liveHeads;
    private final OpenHashMap<Tuple, Tuple>[][] waitHeads;
    private final OpenHashMap<Tuple, Tuple>[] upHeads;
    private int[] dirtyNode = new int[0];
    private Tuple[] dirtyTuple = new Tuple[0];
    private int dirtyCount;

    /**
     * A store for the nodes of {@code layout} and {@code extraIds} further record ids after them (the
     * cyclic plan's root payloads).
     */
    public MemoryJoinRecordStore(JoinLayout layout, int extraIds) {
        this(layout, extraIds, MemoryMaps.PLAIN);
    }

    @SuppressWarnings("unchecked")
    /** The same, with maps made by {@code maps} (counting ones for benchmarks and tests). */
    public MemoryJoinRecordStore(JoinLayout layout, int extraIds, MemoryMaps maps) {
        int nodes = layout.nodeCount();
        records = new OpenHashMap[nodes + extraIds];
        for (int i = 0; i < records.length; i++) {
            // The acyclic plan's nodes are root views (payload and join links in one record); the
            // cyclic plan's are bags, its root views the extra ids.
            records[i] =
                    maps.map(extraIds == 0 || i >= nodes ? StateCounts.Role.ROOT_VIEW : StateCounts.Role.BOOLEAN_JOIN);
        }
        liveHeads = new OpenHashMap[nodes];
        waitHeads = new OpenHashMap[nodes][];
        upHeads = new OpenHashMap[nodes];
        for (int n = 0; n < nodes; n++) {
            liveHeads[n] = maps.map(StateCounts.Role.BOOLEAN_JOIN);
            upHeads[n] = maps.map(StateCounts.Role.BOOLEAN_JOIN);
            int kids = layout.joinChildren(n).length;
            waitHeads[n] = new OpenHashMap[kids];
            for (int c = 0; c < kids; c++) {
                waitHeads[n][c] = maps.map(StateCounts.Role.BOOLEAN_JOIN);
            }
        }
    }

    @Override
    public JoinRecord<T> get(int node, Tuple tuple) {
        return records[node].get(tuple);
    }

    @Override
    public void add(int node, Tuple tuple, JoinRecord<T> record) {
        records[node].put(tuple, record);
    }

    @Override
    public void update(int node, Tuple tuple, JoinRecord<T> record) {
        // The record is the stored object itself.
    }

    @Override
    public Iterator<Map.Entry<Tuple, JoinRecord<T>>> records(int node) {
        return records[node].entries();
    }

    @Override
    public Tuple liveHead(int node, Tuple key) {
        return liveHeads[node].get(key);
    }

    @Override
    public void setLiveHead(int node, Tuple key, Tuple tuple) {
        liveHeads[node].put(key, tuple);
    }

    @Override
    public Tuple waitHead(int node, int child, Tuple key) {
        return waitHeads[node][child].get(key);
    }

    @Override
    public void setWaitHead(int node, int child, Tuple key, Tuple tuple) {
        if (tuple == null) {
            waitHeads[node][child].remove(key);
        } else {
            waitHeads[node][child].put(key, tuple);
        }
    }

    @Override
    public Tuple upHead(int child, Tuple key) {
        return upHeads[child].get(key);
    }

    @Override
    public void setUpHead(int child, Tuple key, Tuple parentTuple) {
        upHeads[child].put(key, parentTuple);
    }

    @Override
    public void markDirty(int node, Tuple tuple) {
        if (dirtyCount == dirtyNode.length) {
            int size = Math.max(16, 2 * dirtyCount);
            dirtyNode = Arrays.copyOf(dirtyNode, size);
            dirtyTuple = Arrays.copyOf(dirtyTuple, size);
        }
        dirtyNode[dirtyCount] = node;
        dirtyTuple[dirtyCount] = tuple;
        dirtyCount++;
    }

    @Override
    public void forEachDirty(DirtyAction action) {
        for (int i = 0; i < dirtyCount; i++) {
            action.accept(dirtyNode[i], dirtyTuple[i]);
        }
    }

    @Override
    public void clearDirty() {
        Arrays.fill(dirtyTuple, 0, dirtyCount, null);
        dirtyCount = 0;
    }

    /** Number of dirty marks since the last {@link #clearDirty}. */
    public int dirtyCount() {
        return dirtyCount;
    }

    /** The records of id {@code id} (for a checkpoint codec). */
    public OpenHashMap<Tuple, JoinRecord<T>> recordMap(int id) {
        return records[id];
    }

    /** Number of record ids (join nodes, then extra ids). */
    public int ids() {
        return records.length;
    }

    /** Every head map in a fixed order: per node its live heads, its up heads, then its waiting heads per child. */
    public java.util.List<OpenHashMap<Tuple, Tuple>> headMaps() {
        java.util.List<OpenHashMap<Tuple, Tuple>> out = new java.util.ArrayList<>();
        for (int n = 0; n < liveHeads.length; n++) {
            out.add(liveHeads[n]);
            out.add(upHeads[n]);
            out.addAll(Arrays.asList(waitHeads[n]));
        }
        return out;
    }

    /** Number of entries over all maps (a state-size figure). */
    public long entries() {
        long total = 0;
        for (OpenHashMap<Tuple, JoinRecord<T>> m : records) {
            total += m.size();
        }
        for (OpenHashMap<Tuple, Tuple> m : headMaps()) {
            total += m.size();
        }
        return total;
    }
}
