package io.flinkivm.flink.state;

import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.engine.join.QTreeEntry;
import io.flinkivm.core.engine.join.QTreeStore;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.QTreeEntrySerializer;
import io.flinkivm.flink.types.TaggedTuple;
import io.flinkivm.flink.types.TaggedTupleSerializer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.BooleanSerializer;

/**
 * The q-tree join's entries ({@link QTreeStore}) in managed keyed state, scoped to the sink's current
 * key: one map state of entries by (q-tree node, path value) ({@link StateNames#QTREE_ENTRIES}) and one
 * of the entries changed since the last trigger ({@link StateNames#QTREE_DIRTY}). Reads are copies,
 * written back by {@link #update}. Create it in {@code initializeState}.
 */
public final class FlinkQTreeStore<T> implements QTreeStore<T> {
    private final MapState<TaggedTuple, QTreeEntry<T>> entries;
    private final MapState<TaggedTuple, Boolean> dirty;

    public FlinkQTreeStore(KeyedStateStore context, TypeSerializer<T> payloads) {
        entries = context.getMapState(new MapStateDescriptor<>(
                StateNames.QTREE_ENTRIES, TaggedTupleSerializer.INSTANCE, new QTreeEntrySerializer<>(payloads)));
        dirty = context.getMapState(new MapStateDescriptor<>(
                StateNames.QTREE_DIRTY, TaggedTupleSerializer.INSTANCE, BooleanSerializer.INSTANCE));
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
        try {
            dirty.put(new TaggedTuple(node, key), Boolean.TRUE);
        } catch (Exception e) {
            throw new StateAccessException("cannot write state " + StateNames.QTREE_DIRTY, e);
        }
    }

    @Override
    public void forEachDirty(JoinRecordStore.DirtyAction action) {
        List<TaggedTuple> marked = new ArrayList<>();
        try {
            for (Iterator<Map.Entry<TaggedTuple, Boolean>> it = dirty.iterator(); it.hasNext(); ) {
                marked.add(it.next().getKey());
            }
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + StateNames.QTREE_DIRTY, e);
        }
        for (TaggedTuple t : marked) {
            action.accept(t.tag(), t.tuple());
        }
    }

    @Override
    public void clearDirty() {
        dirty.clear();
    }
}
