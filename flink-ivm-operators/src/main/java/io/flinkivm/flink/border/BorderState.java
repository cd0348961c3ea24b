package io.flinkivm.flink.border;

import io.flinkivm.core.engine.BorderJoin;
import io.flinkivm.core.engine.border.MemoryJoinRecordStore;
import io.flinkivm.core.engine.cyclic.BagJoinMaps;
import io.flinkivm.core.engine.cyclic.BagJoinStore;
import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.common.KeyGroupStates;
import io.flinkivm.flink.common.MemoryMapCodec;
import io.flinkivm.flink.common.StateLayout;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.sink.SinkState;
import io.flinkivm.flink.types.JoinRecordSerializer;
import io.flinkivm.flink.types.TaggedTuple;
import io.flinkivm.flink.types.TupleSerializer;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.KeyContext;

/**
 * The border sink's state, in the layout chosen once ({@link StateLayout}): the join's records and
 * list heads (and the cyclic plan's bag indexes) of the current key, and the groups a trigger reads:
 * Flink keys of managed keyed state ({@link FlinkJoinRecordStore}), or the operator's own parts per key
 * group ({@link MemoryJoinRecordStore} in {@link KeyGroupStates}, heap backend).
 */
interface BorderState<T> extends SinkState<BorderState.Group<T>> {
    /** The records and list heads of the current key. */
    JoinRecordStore<T> records();

    /** The bags' indexes of the current key (cyclic plan), or null. */
    BagJoinStore bags();

    /** A part of the sink's state that a trigger reads on its own: a Flink key, or a key group's part. */
    interface Group<T> {
        /** Makes the group current (for the managed layout: its key) and returns its records. */
        JoinRecordStore<T> select();

        /** Ends what {@link #select} began. */
        void done();

        /** Every record of the selected group with its record id. */
        void forEachRecord(RecordAction<T> action);
    }

    /** Receives a record and its id. */
    @FunctionalInterface
    interface RecordAction<T> {
        void accept(int id, JoinRecord<T> record);
    }

    /**
     * Records a trigger keeps in memory on managed state: the root's records are scanned in key order,
     * the other nodes' are read by key, many of them again and again (a small root view joined with a
     * large one); about 100 bytes each.
     */
    int READ_CACHE = 100_000;

    /** Managed keyed state: three map states (and the bags'), scoped to the current key. */
    final class Managed<T> extends SinkState.Managed<Group<T>> implements BorderState<T> {
        private final FlinkJoinRecordStore<T> store;
        private final BagJoinStore bags;

        Managed(FlinkJoinRecordStore<T> store, BagJoinStore bags, KeyedStateBackend<?> backend, KeyContext keys) {
            super(backend, keys, StateNames.JOIN_RECORDS, store.dirtyMarks());
            this.store = store;
            this.bags = bags;
        }

        @Override
        public JoinRecordStore<T> records() {
            return store;
        }

        @Override
        public BagJoinStore bags() {
            return bags;
        }

        @Override
        protected Group<T> group(Object key) {
            return new KeyGroup(key);
        }

        /** The keys with records, after the records held in memory were written (a snapshot scans them all). */
        @Override
        public List<Group<T>> resultGroups() throws Exception {
            store.flush();
            return super.resultGroups();
        }

        /** Writes the records held in memory, then the marks, to the states the checkpoint takes. */
        @Override
        public void snapshot(StateSnapshotContext context) {
            store.flush();
            super.snapshot(context);
        }

        @Override
        public void forgetCurrentKey() {
            store.forgetCurrentKey();
            super.forgetCurrentKey();
        }

        /** Fills the store's key filter from the states (after a restore: they hold keys it has not seen). */
        void rememberStoredKeys() throws Exception {
            StateLayout.forEachStoredKey(
                    backend, List.of(StateNames.JOIN_RECORDS, StateNames.JOIN_HEADS), keys, store::rememberStoredKeys);
        }

        private final class KeyGroup implements Group<T> {
            private final Object key;

            KeyGroup(Object key) {
                this.key = key;
            }

            @Override
            public JoinRecordStore<T> select() {
                keys.setCurrentKey(key);
                store.startReads(READ_CACHE);
                return store;
            }

            @Override
            public void done() {
                store.endReads();
            }

            @Override
            public void forEachRecord(RecordAction<T> action) {
                for (Iterator<Map.Entry<TaggedTuple, JoinRecord<T>>> it = store.records(); it.hasNext(); ) {
                    Map.Entry<TaggedTuple, JoinRecord<T>> e = it.next();
                    action.accept(e.getKey().tag(), e.getValue());
                }
            }
        }
    }

    /** The operator's own maps, one part per key group (per key for the cyclic plan). */
    final class InMemory<T> extends SinkState.InMemory<Part<T>, Group<T>> implements BorderState<T> {
        InMemory(KeyGroupStates<Part<T>> parts) {
            super(parts);
        }

        @Override
        public JoinRecordStore<T> records() {
            return parts.current().records;
        }

        @Override
        public BagJoinStore bags() {
            return parts.current().bags;
        }

        @Override
        protected Group<T> group(Part<T> part) {
            return part;
        }

        @Override
        protected boolean changed(Part<T> part) {
            return part.records.dirtyCount() > 0;
        }
    }

    /** One key group's state in the operator's memory: the records and list heads, and the bag indexes. */
    final class Part<T> implements Group<T> {
        final MemoryJoinRecordStore<T> records;
        final MemoryJoinMaps bagMaps;
        final BagJoinStore bags;

        Part(BorderJoin<T> border) {
            records = new MemoryJoinRecordStore<>(border.layout(), border.extraIds());
            bagMaps = border.isCyclic() ? new MemoryJoinMaps() : null;
            bags = border.isCyclic() ? new BagJoinMaps(border.bagLayout(), bagMaps) : null;
        }

        @Override
        public JoinRecordStore<T> select() {
            return records;
        }

        @Override
        public void done() {}

        @Override
        public void forEachRecord(RecordAction<T> action) {
            for (int id = 0; id < records.ids(); id++) {
                for (Iterator<Map.Entry<Tuple, JoinRecord<T>>> it =
                                records.recordMap(id).entries();
                        it.hasNext(); ) {
                    action.accept(id, it.next().getValue());
                }
            }
        }
    }

    /**
     * Writes a part: the records of each id, the list heads, the dirty marks (changelog), then the
     * bags' indexes.
     */
    final class PartCodec<T> implements KeyGroupStates.Codec<Part<T>> {
        private final BorderJoin<T> border;
        private final JoinRecordSerializer<T> records;

        PartCodec(BorderJoin<T> border, TypeSerializer<T> payloads) {
            this.border = border;
            this.records = new JoinRecordSerializer<>(payloads);
        }

        @Override
        public void write(Part<T> part, DataOutputView out) throws IOException {
            for (int id = 0; id < part.records.ids(); id++) {
                MemoryMapCodec.write(part.records.recordMap(id), records, out);
            }
            for (OpenHashMap<Tuple, Tuple> heads : part.records.headMaps()) {
                MemoryMapCodec.write(heads, TupleSerializer.INSTANCE, out);
            }
            out.writeInt(part.records.dirtyCount());
            IOException[] failure = new IOException[1];
            part.records.forEachDirty((node, tuple) -> {
                try {
                    out.writeInt(node);
                    TupleSerializer.INSTANCE.serialize(tuple, out);
                } catch (IOException e) {
                    failure[0] = e;
                }
            });
            if (failure[0] != null) {
                throw failure[0];
            }
            if (part.bagMaps != null) {
                part.bagMaps.write(out);
            }
        }

        @Override
        public Part<T> read(DataInputView in) throws IOException {
            Part<T> part = new Part<>(border);
            for (int id = 0; id < part.records.ids(); id++) {
                MemoryMapCodec.read(part.records.recordMap(id), records, in);
            }
            for (OpenHashMap<Tuple, Tuple> heads : part.records.headMaps()) {
                MemoryMapCodec.read(heads, TupleSerializer.INSTANCE, in);
            }
            int dirty = in.readInt();
            for (int i = 0; i < dirty; i++) {
                int node = in.readInt();
                part.records.markDirty(node, TupleSerializer.INSTANCE.deserialize(in));
            }
            if (part.bagMaps != null) {
                part.bagMaps.read(in);
            }
            return part;
        }
    }
}
