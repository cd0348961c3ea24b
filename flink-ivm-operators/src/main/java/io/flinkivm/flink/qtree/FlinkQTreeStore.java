package io.flinkivm.flink.qtree;

import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.engine.qtree.QTreeEntry;
import io.flinkivm.core.engine.qtree.QTreeStore;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.common.StateAccessException;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.sink.DirtyMarks;
import io.flinkivm.flink.types.QTreeEntrySerializer;
import io.flinkivm.flink.types.TaggedTuple;
import io.flinkivm.flink.types.TaggedTupleSerializer;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.operators.KeyContext;

/**
 * The q-tree join's entries ({@link QTreeStore}) in managed keyed state, scoped to the sink's current
 * key: one map state of entries by (q-tree node, path value) ({@link StateNames#QTREE_ENTRIES}) and the
 * marks of the entries changed since the last trigger ({@link DirtyMarks}, {@link StateNames#QTREE_DIRTY}).
 * Reads are copies, written back by {@link #update}. Create it in {@code initializeState}.
 */
final class FlinkQTreeStore<T> implements QTreeStore<T> {
    private final MapState<TaggedTuple, QTreeEntry<T>> entries;
    private final DirtyMarks dirty;

    /**
     * @param keys the operator's key context, which the changelog's marks are held in memory by; null
     *     when the operator keeps its own state and does not use this store
     */
    public FlinkQTreeStore(KeyedStateStore context, TypeSerializer<T> payloads, KeyContext keys) {
        entries = context.getMapState(new MapStateDescriptor<>(
                StateNames.QTREE_ENTRIES, TaggedTupleSerializer.INSTANCE, new QTreeEntrySerializer<>(payloads)));
        dirty = new DirtyMarks(context, StateNames.QTREE_DIRTY, keys);
    }

    @Override
    public QTreeEntry<T> get(int node, Tuple key) {
        try {
            return entries.get(new TaggedTuple(node, key));
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + StateNames.QTREE_ENTRIES, e);
        }
    }

    @Override
    public void add(int node, Tuple key, QTreeEntry<T> entry) {
        update(node, key, entry);
    }

    @Override
    public void update(int node, Tuple key, QTreeEntry<T> entry) {
        try {
            entries.put(new TaggedTuple(node, key), entry);
        } catch (Exception e) {
            throw new StateAccessException("cannot write state " + StateNames.QTREE_ENTRIES, e);
        }
    }

    @Override
    public void remove(int node, Tuple key) {
        try {
            entries.remove(new TaggedTuple(node, key));
        } catch (Exception e) {
            throw new StateAccessException("cannot write state " + StateNames.QTREE_ENTRIES, e);
        }
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

    /** The marks of the entries changed since the last trigger. */
    public DirtyMarks dirtyMarks() {
        return dirty;
    }
}
