package io.flinkivm.flink.fallback;

import io.flinkivm.core.engine.fallback.DeltaJoinLogic;
import io.flinkivm.core.engine.fallback.DeltaJoinStore;
import io.flinkivm.core.engine.fallback.MemoryDeltaJoinStore;
import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.common.KeyGroupStates;
import io.flinkivm.flink.common.MapStateAdapter;
import io.flinkivm.flink.common.MemoryMapCodec;
import io.flinkivm.flink.common.StateLayout;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.types.TupleSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.KeyContext;

/**
 * The fallback's state, in the layout chosen once ({@link StateLayout}): the delta joins' relations,
 * indexes and result of the current key, the rows with deletes that no atom matches, and the groups a
 * trigger reads: Flink keys of managed keyed state ({@link FlinkDeltaJoinStore}), or the operator's own
 * parts ({@link MemoryDeltaJoinStore} in {@link KeyGroupStates}, heap backend).
 */
interface FallbackState<T> {
    /** The relations, indexes and result of the current key. */
    DeltaJoinStore<T> store();

    /**
     * The current key's rows of relation {@code relation} (its index in the query) that no atom matches,
     * with their payloads (rows of relations with deletes only).
     */
    KeyValueState<Tuple, T> outside(int relation);

    /** The groups that may hold results. */
    List<Group<T>> resultGroups() throws Exception;

    /** The groups that may hold changes since the previous trigger (changelog mode). */
    List<Group<T>> changedGroups() throws Exception;

    /** Writes what a checkpoint needs beyond Flink's managed state (the in-memory layout's parts). */
    void snapshot(StateSnapshotContext context) throws Exception;

    /** A part of the state that a trigger reads on its own: a Flink key, or an in-memory part. */
    interface Group<T> {
        /** Makes the group current (for the managed layout: its key) and returns its store. */
        DeltaJoinStore<T> select();

        /** Hands the selected group's result tuples changed since the last trigger to {@code out}, then forgets them. */
        void changes(Consumer<ResultChange<T>> out);
    }

    /**
     * The fallback's state in the layout for {@code backend}, restored from {@code context}; call from
     * {@code initializeState}.
     *
     * @param perKey whether keys must not share a part: the fallback keyed by cells, where one atom
     *     tuple reaches several cells (keyed by a variable's value, every lookup has that value in its key)
     * @param changelog the semiring, to keep the changes since the last trigger; null for snapshots only
     * @param states where the managed layout's keyed states come from
     */
    static <T> FallbackState<T> create(
            DeltaJoinLogic<T> logic,
            boolean managed,
            KeyedStateStore states,
            boolean perKey,
            boolean deletes,
            TypeSerializer<T> payloads,
            Semiring<T> changelog,
            KeyedStateBackend<?> backend,
            StateInitializationContext context,
            KeyContext keys)
            throws Exception {
        String operator = "the fallback's delta joins";
        StateLayout layout = StateLayout.choose(operator, managed, backend, context);
        // Registered on either layout, so that a savepoint's serializers are checked on the heap backend too.
        FlinkDeltaJoinStore<T> store = new FlinkDeltaJoinStore<>(logic, payloads, states, deletes, changelog);
        int relations = logic.query().relations().size();
        List<MapStateAdapter<Tuple, T>> outside = new ArrayList<>();
        for (int r = 0; deletes && r < relations; r++) {
            String name = StateNames.rowsOutside(r);
            outside.add(new MapStateAdapter<>(
                    states.getMapState(new MapStateDescriptor<>(name, TupleSerializer.INSTANCE, payloads)), name));
        }
        if (layout == StateLayout.MANAGED) {
            return new Managed<>(store, outside, backend, keys);
        }
        List<String> names = new ArrayList<>();
        for (int a = 0; a < logic.query().body().size(); a++) {
            names.add(StateNames.relation(a));
        }
        names.add(StateNames.RESULT);
        StateLayout.checkNoManagedState(operator, backend, names);
        int outsideMaps = deletes ? relations : 0;
        KeyGroupStates<Part<T>> parts = KeyGroupStates.restore(
                backend,
                context,
                () -> new Part<>(new MemoryDeltaJoinStore<>(logic, MemoryMaps.PLAIN, changelog), outsideMaps),
                new PartCodec<>(logic, payloads, changelog, outsideMaps),
                perKey);
        return new InMemory<>(parts);
    }

    /** Managed keyed state: the map states of {@link FlinkDeltaJoinStore}, scoped to the current key. */
    final class Managed<T> implements FallbackState<T> {
        private final FlinkDeltaJoinStore<T> store;
        private final List<MapStateAdapter<Tuple, T>> outside;
        private final KeyedStateBackend<?> backend;
        private final KeyContext keys;

        Managed(
                FlinkDeltaJoinStore<T> store,
                List<MapStateAdapter<Tuple, T>> outside,
                KeyedStateBackend<?> backend,
                KeyContext keys) {
            this.store = store;
            this.outside = outside;
            this.backend = backend;
            this.keys = keys;
        }

        @Override
        public DeltaJoinStore<T> store() {
            return store;
        }

        @Override
        public KeyValueState<Tuple, T> outside(int relation) {
            return outside.get(relation);
        }

        @Override
        public List<Group<T>> resultGroups() throws Exception {
            return keysOf(StateNames.RESULT);
        }

        @Override
        public List<Group<T>> changedGroups() throws Exception {
            return keysOf(StateNames.RESULT_BEFORE);
        }

        private List<Group<T>> keysOf(String state) throws Exception {
            List<Group<T>> out = new ArrayList<>();
            try (Stream<?> all = backend.getKeys(state, VoidNamespace.INSTANCE)) {
                all.forEach(k -> out.add(new Key(k)));
            }
            return out;
        }

        @Override
        public void snapshot(StateSnapshotContext context) {}

        private final class Key implements Group<T> {
            private final Object key;

            Key(Object key) {
                this.key = key;
            }

            @Override
            public DeltaJoinStore<T> select() {
                keys.setCurrentKey(key);
                return store;
            }

            @Override
            public void changes(Consumer<ResultChange<T>> out) {
                store.changes(out);
            }
        }
    }

    /** The operator's own maps, one part per key group (per key where keys are cells). */
    final class InMemory<T> implements FallbackState<T> {
        private final KeyGroupStates<Part<T>> parts;

        InMemory(KeyGroupStates<Part<T>> parts) {
            this.parts = parts;
        }

        @Override
        public DeltaJoinStore<T> store() {
            return parts.current().store;
        }

        @Override
        public KeyValueState<Tuple, T> outside(int relation) {
            return parts.current().outside[relation];
        }

        @Override
        public List<Group<T>> resultGroups() {
            return new ArrayList<>(parts.all());
        }

        @Override
        public List<Group<T>> changedGroups() {
            List<Group<T>> out = new ArrayList<>();
            for (Part<T> p : parts.all()) {
                if (p.store.hasChanges()) {
                    out.add(p);
                }
            }
            return out;
        }

        @Override
        public void snapshot(StateSnapshotContext context) throws Exception {
            parts.snapshot(context);
        }
    }

    /** A key group's (or cell's) part in memory: the delta joins' store and the rows no atom matches. */
    final class Part<T> implements Group<T> {
        final MemoryDeltaJoinStore<T> store;
        final OpenHashMap<Tuple, T>[] outside;

        @SuppressWarnings("unchecked")
        Part(MemoryDeltaJoinStore<T> store, int relations) {
            this.store = store;
            this.outside = new OpenHashMap[relations];
            for (int r = 0; r < relations; r++) {
                outside[r] = new OpenHashMap<>();
            }
        }

        @Override
        public DeltaJoinStore<T> select() {
            return store;
        }

        @Override
        public void changes(Consumer<ResultChange<T>> out) {
            store.changes(out);
        }
    }

    /**
     * Writes a part: each atom's relation, the result, (changelog) the payloads at the last trigger of
     * the result tuples changed since, then (inputs with deletes) each relation's rows no atom matches. The indexes are not written: a read links the
     * relations' tuples into them again.
     */
    final class PartCodec<T> implements KeyGroupStates.Codec<Part<T>> {
        private final DeltaJoinLogic<T> logic;
        private final TypeSerializer<T> payloads;
        private final Semiring<T> changelog;
        private final int outsideMaps;

        PartCodec(DeltaJoinLogic<T> logic, TypeSerializer<T> payloads, Semiring<T> changelog, int outsideMaps) {
            this.logic = logic;
            this.payloads = payloads;
            this.changelog = changelog;
            this.outsideMaps = outsideMaps;
        }

        @Override
        public void write(Part<T> whole, DataOutputView out) throws IOException {
            MemoryDeltaJoinStore<T> part = whole.store;
            IOException[] failure = new IOException[1];
            for (int a = 0; a < logic.query().body().size(); a++) {
                out.writeInt(part.relationSize(a));
                part.forEachTuple(a, (tuple, payload) -> {
                    try {
                        TupleSerializer.INSTANCE.serialize(tuple, out);
                        payloads.serialize(payload, out);
                    } catch (IOException e) {
                        failure[0] = e;
                    }
                });
                if (failure[0] != null) {
                    throw failure[0];
                }
            }
            MemoryMapCodec.write(part.resultMap(), payloads, out);
            if (changelog != null) {
                MemoryMapCodec.write(part.rememberedMap(), payloads, out);
            }
            for (OpenHashMap<Tuple, T> rows : whole.outside) {
                MemoryMapCodec.write(rows, payloads, out);
            }
        }

        @Override
        public Part<T> read(DataInputView in) throws IOException {
            MemoryDeltaJoinStore<T> part = new MemoryDeltaJoinStore<>(logic, MemoryMaps.PLAIN, changelog);
            for (int a = 0; a < logic.query().body().size(); a++) {
                int n = in.readInt();
                for (int i = 0; i < n; i++) {
                    Tuple tuple = TupleSerializer.INSTANCE.deserialize(in);
                    logic.load(part, a, tuple, payloads.deserialize(in));
                }
            }
            MemoryMapCodec.read(part.resultMap(), payloads, in);
            if (changelog != null) {
                MemoryMapCodec.read(part.rememberedMap(), payloads, in);
            }
            Part<T> whole = new Part<>(part, outsideMaps);
            for (OpenHashMap<Tuple, T> rows : whole.outside) {
                MemoryMapCodec.read(rows, payloads, in);
            }
            return whole;
        }
    }
}
