package io.flinkivm.flink.qtree;

import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.engine.qtree.MemoryQTreeStore;
import io.flinkivm.core.engine.qtree.QTreeEntry;
import io.flinkivm.core.engine.qtree.QTreeStore;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.common.KeyGroupStates;
import io.flinkivm.flink.common.MemoryMapCodec;
import io.flinkivm.flink.common.StateLayout;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.sink.SinkState;
import io.flinkivm.flink.types.QTreeEntrySerializer;
import io.flinkivm.flink.types.TupleSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.streaming.api.operators.KeyContext;

/**
 * The q-tree sink's state, in the layout chosen once ({@link StateLayout}): the q-tree join's entries
 * of the current key, and the groups a trigger reads: Flink keys of managed keyed state
 * ({@link FlinkQTreeStore}), or the operator's own store per key group ({@link MemoryQTreeStore} in
 * {@link KeyGroupStates}, heap backend).
 */
interface QTreeState<T> extends SinkState<QTreeState.Group<T>> {
    /** The entries of the current key. */
    QTreeStore<T> current();

    /** A part of the sink's state that a trigger reads on its own: a Flink key, or a key group's store. */
    @FunctionalInterface
    interface Group<T> {
        /** Makes the group current (for the managed layout: its key) and returns its entries. */
        QTreeStore<T> select();
    }

    /** Managed keyed state: two map states scoped to the current key. */
    final class Managed<T> extends SinkState.Managed<Group<T>> implements QTreeState<T> {
        private final FlinkQTreeStore<T> store;

        Managed(FlinkQTreeStore<T> store, KeyedStateBackend<?> backend, KeyContext keys) {
            super(backend, keys, StateNames.QTREE_ENTRIES, store.dirtyMarks());
            this.store = store;
        }

        @Override
        public QTreeStore<T> current() {
            return store;
        }

        @Override
        protected Group<T> group(Object key) {
            return () -> {
                keys.setCurrentKey(key);
                return store;
            };
        }
    }

    /** The operator's own stores, one per key group. */
    final class InMemory<T> extends SinkState.InMemory<MemoryQTreeStore<T>, Group<T>> implements QTreeState<T> {
        InMemory(KeyGroupStates<MemoryQTreeStore<T>> parts) {
            super(parts);
        }

        @Override
        public QTreeStore<T> current() {
            return parts.current();
        }

        @Override
        protected Group<T> group(MemoryQTreeStore<T> part) {
            return () -> part;
        }

        @Override
        protected boolean changed(MemoryQTreeStore<T> part) {
            return part.dirtyCount() > 0;
        }
    }

    /** Writes a key group's store: per node its entries, then the dirty marks (changelog). */
    final class Codec<T> implements KeyGroupStates.Codec<MemoryQTreeStore<T>> {
        private final int nodes;
        private final QTreeEntrySerializer<T> entries;

        Codec(int nodes, QTreeEntrySerializer<T> entries) {
            this.nodes = nodes;
            this.entries = entries;
        }

        @Override
        public void write(MemoryQTreeStore<T> store, DataOutputView out) throws IOException {
            for (int n = 0; n < nodes; n++) {
                MemoryMapCodec.write(store.map(n), entries, out);
            }
            List<Object> marks = new ArrayList<>();
            store.forEachDirty((node, key) -> {
                marks.add(node);
                marks.add(key);
            });
            out.writeInt(marks.size() / 2);
            for (int i = 0; i < marks.size(); i += 2) {
                out.writeInt((Integer) marks.get(i));
                TupleSerializer.INSTANCE.serialize((Tuple) marks.get(i + 1), out);
            }
        }

        @Override
        public MemoryQTreeStore<T> read(DataInputView in) throws IOException {
            MemoryQTreeStore<T> store = new MemoryQTreeStore<>(nodes, MemoryMaps.PLAIN);
            for (int n = 0; n < nodes; n++) {
                OpenHashMap<Tuple, QTreeEntry<T>> map = store.map(n);
                MemoryMapCodec.read(map, entries, in);
            }
            int marks = in.readInt();
            for (int i = 0; i < marks; i++) {
                int node = in.readInt();
                store.markDirty(node, TupleSerializer.INSTANCE.deserialize(in));
            }
            return store;
        }
    }
}
