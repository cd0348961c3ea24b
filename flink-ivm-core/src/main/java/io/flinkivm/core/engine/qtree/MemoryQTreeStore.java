package io.flinkivm.core.engine.qtree;

import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.engine.join.MemoryDirtyMarks;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/** A {@link QTreeStore} in open-addressing hash maps, one per q-tree node, entries as live objects. */
@Internal
public final class MemoryQTreeStore<T> implements QTreeStore<T> {
    private final OpenHashMap<Tuple, QTreeEntry<T>>[] entries;
    private final MemoryDirtyMarks dirty = new MemoryDirtyMarks();

    /** A store for a q-tree of {@code nodes} nodes, with maps made by {@code maps}. */
    @SuppressWarnings("unchecked")
    public MemoryQTreeStore(int nodes, MemoryMaps maps) {
        entries = new OpenHashMap[nodes];
        for (int n = 0; n < nodes; n++) {
            entries[n] = maps.map(StateCounts.Role.ROOT_VIEW);
        }
    }

    @Override
    public QTreeEntry<T> get(int node, Tuple key) {
        return entries[node].get(key);
    }

    @Override
    public void add(int node, Tuple key, QTreeEntry<T> entry) {
        entries[node].put(key, entry);
    }

    @Override
    public void update(int node, Tuple key, QTreeEntry<T> entry) {
        // The entry is the stored object itself.
    }

    @Override
    public void remove(int node, Tuple key) {
        entries[node].remove(key);
    }

    @Override
    public void markDirty(int node, Tuple key) {
        dirty.mark(node, key);
    }

    @Override
    public void forEachDirty(JoinRecordStore.DirtyAction action) {
        dirty.forEach(action);
    }

    @Override
    public void clearDirty() {
        dirty.clear();
    }

    /** The number of q-tree nodes. */
    public int nodes() {
        return entries.length;
    }

    /** The entries of {@code node} by path value (for a runtime's checkpoint of this store). */
    public OpenHashMap<Tuple, QTreeEntry<T>> map(int node) {
        return entries[node];
    }

    /** Changelog: the number of marks since {@link #clearDirty}. */
    public int dirtyCount() {
        return dirty.count();
    }

    /** Number of entries over all nodes (a state-size figure). */
    public long entries() {
        long total = 0;
        for (OpenHashMap<Tuple, QTreeEntry<T>> m : entries) {
            total += m.size();
        }
        return total;
    }
}
