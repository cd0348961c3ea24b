package io.flinkivm.core.engine.border;

import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.engine.join.MemoryDirtyMarks;
import io.flinkivm.core.engine.join.RecordScan;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.query.Tuple;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * A {@link JoinRecordStore} in open-addressing hash maps whose records are live objects (an update is
 * free): the in-memory engines' store, and the Flink sink's on the heap backend (one per key group,
 * written to the checkpoint by its maps).
 *
 * @param <T> the payload type
 */
@Internal
public final class MemoryJoinRecordStore<T> implements JoinRecordStore<T> {
    private final OpenHashMap<Tuple, JoinRecord<T>>[] records;
    private final OpenHashMap<Tuple, Tuple>[] liveHeads;
    private final OpenHashMap<Tuple, Tuple>[][] waitHeads;
    private final OpenHashMap<Tuple, Tuple>[] upHeads;
    private final MemoryDirtyMarks dirty = new MemoryDirtyMarks();
    /** The join's root node (-1 without a join tree). */
    private final int root;
    /**
     * The root's live tuples in the order they became live, each as a run of {@link #stride} entries:
     * the tuple, its record, then per slot a tuple and a record ({@link RecordScan#remember}). Built on
     * the first {@link #liveRecords} (also after a restore, whose codec fills the maps only) and kept up
     * to date by {@link #becameLive} from then on. Not state: derived from the records, and the records
     * it holds are the stored objects.
     */
    private Object[] liveRoots;

    private int stride;
    private int liveRootCount;
    /** The live root tuples before this one were handed out by {@link RecordScan#nextToRemember}. */
    private int toRememberFrom;

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
        root = nodes == 0 ? -1 : layout.order()[0];
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

    /**
     * For the root, a scan of an array of its live tuples, with {@code slots} slots each: it visits no
     * record that is not live, and what a walk remembers in a slot it finds there next time.
     */
    @Override
    public RecordScan<T> liveRecords(int node, int slots) {
        if (node != root) {
            return JoinRecordStore.super.liveRecords(node, slots);
        }
        if (liveRoots == null || stride != 2 + 2 * slots) {
            collectLiveRoots(2 + 2 * slots);
        }
        Object[] array = liveRoots;
        int count = liveRootCount;
        int end = count * stride;
        int width = stride;
        return new RecordScan<>() {
            private int at = -width;

            @Override
            public boolean next() {
                at += width;
                return at < end;
            }

            @Override
            public boolean nextToRemember() {
                if (toRememberFrom < count) {
                    at = toRememberFrom++ * width;
                    return true;
                }
                at = -width;
                return false;
            }

            @Override
            public Tuple tuple() {
                return (Tuple) array[at];
            }

            @Override
            @SuppressWarnings("unchecked")
            public JoinRecord<T> record() {
                return (JoinRecord<T>) array[at + 1];
            }

            @Override
            @SuppressWarnings("unchecked")
            public JoinRecord<T> slotRecord(int slot) {
                return (JoinRecord<T>) array[at + 3 + 2 * slot];
            }

            @Override
            public Tuple slotTuple(int slot) {
                return (Tuple) array[at + 2 + 2 * slot];
            }

            @Override
            public void remember(int slot, Tuple tuple, JoinRecord<T> record) {
                array[at + 2 + 2 * slot] = tuple;
                array[at + 3 + 2 * slot] = record;
            }

            @Override
            public boolean remembers() {
                return true;
            }
        };
    }

    private void collectLiveRoots(int width) {
        stride = width;
        toRememberFrom = 0;
        int live = 0;
        for (Iterator<Map.Entry<Tuple, JoinRecord<T>>> it = records[root].entries(); it.hasNext(); ) {
            live += it.next().getValue().isLive() ? 1 : 0;
        }
        liveRoots = new Object[Math.max(16, live) * stride];
        liveRootCount = 0;
        for (Iterator<Map.Entry<Tuple, JoinRecord<T>>> it = records[root].entries(); it.hasNext(); ) {
            Map.Entry<Tuple, JoinRecord<T>> e = it.next();
            if (e.getValue().isLive()) {
                appendLiveRoot(e.getKey(), e.getValue());
            }
        }
    }

    private void appendLiveRoot(Tuple tuple, JoinRecord<T> record) {
        int at = liveRootCount * stride;
        if (at == liveRoots.length) {
            liveRoots = Arrays.copyOf(liveRoots, 2 * at);
        }
        liveRoots[at] = tuple;
        liveRoots[at + 1] = record;
        liveRootCount++;
    }

    @Override
    public void becameLive(int node, Tuple tuple, JoinRecord<T> record) {
        if (node == root && liveRoots != null) {
            appendLiveRoot(tuple, record);
        }
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
        dirty.mark(node, tuple);
    }

    @Override
    public void forEachDirty(DirtyAction action) {
        dirty.forEach(action);
    }

    @Override
    public void clearDirty() {
        dirty.clear();
    }

    /** Number of dirty marks since the last {@link #clearDirty}. */
    public int dirtyCount() {
        return dirty.count();
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
