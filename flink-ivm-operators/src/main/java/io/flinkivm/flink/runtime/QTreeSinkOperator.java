package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.join.MemoryQTreeStore;
import io.flinkivm.core.engine.join.QTreeEntry;
import io.flinkivm.core.engine.join.QTreeJoin;
import io.flinkivm.core.engine.join.QTreeStore;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.plan.QHierarchicalPlan;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.state.FlinkQTreeStore;
import io.flinkivm.flink.state.KeyGroupStates;
import io.flinkivm.flink.state.MemoryMapCodec;
import io.flinkivm.flink.state.StateLayout;
import io.flinkivm.flink.state.StateNames;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.QTreeEntrySerializer;
import io.flinkivm.flink.types.RootUpdate;
import io.flinkivm.flink.types.TupleSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * The sink of the {@link QHierarchicalPlan}: the root views in the entries of core's q-tree join
 * ({@link QTreeJoin}), under inserts and deletes over a ring, O(depth) state accesses per root update.
 * A trigger enumerates the result with constant delay (a snapshot), or, in changelog mode, the result
 * tuples whose payload changed since the previous trigger, from the root tuples that changed:
 * {@code +I} for new ones, {@code -U}/{@code +U} for changed ones, {@code -D} for those that left.
 * Keyed as the border sink is (the value of a free variable every root schema has, else HyperCube
 * cells); each key (or key group) holds the q-tree join of its root tuples. The state is in the layout
 * chosen once: managed keyed state ({@link FlinkQTreeStore}), or, on the heap backend, the operator's
 * own maps per key group ({@link MemoryQTreeStore} in {@link KeyGroupStates}).
 */
public final class QTreeSinkOperator<T> extends SnapshotSinkOperator<RootUpdate<T>, T, QTreeSinkOperator.Group<T>> {
    private static final long serialVersionUID = 1L;

    private final QHierarchicalPlan plan;
    private final Semiring<T> semiring;
    private final TypeInformation<T> payloadType;
    private final OutputTag<DeadLetter> deadLetters;
    private final boolean managedState;

    private transient QTreeJoin<T> join;
    /** Managed layout: the store of the current key; null on the in-memory layout. */
    private transient FlinkQTreeStore<T> managed;
    /** In-memory layout: the stores per key group; null on the managed layout. */
    private transient KeyGroupStates<MemoryQTreeStore<T>> parts;

    private transient QTreeStore<T> selected;
    private transient Counter crossings;
    private transient Counter failed;

    /**
     * @param changelog emit the changed result tuples at each trigger instead of the whole result
     * @param updateBefore in changelog mode, emit an update's old payload ({@code -U}) before its new one
     * @param managedState keep the state in Flink's managed keyed state even on the heap backend
     */
    public QTreeSinkOperator(
            QHierarchicalPlan plan,
            Semiring<T> semiring,
            TypeInformation<T> payloadType,
            TypeInformation<RootUpdate<T>> inputType,
            OutputTag<DeadLetter> deadLetters,
            boolean changelog,
            boolean updateBefore,
            boolean managedState) {
        super(inputType, changelog, updateBefore);
        this.plan = plan;
        this.semiring = semiring;
        this.payloadType = payloadType;
        this.deadLetters = deadLetters;
        this.managedState = managedState;
    }

    /** The raw keyed state holds the sink's stores when it runs on the heap backend. */
    @Override
    protected boolean isUsingCustomRawKeyedState() {
        return true;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        join = new QTreeJoin<>(plan, semiring, changelog());
        TypeSerializer<T> payloads = PayloadTypes.inState(
                payloadType.createSerializer(getExecutionConfig().getSerializerConfig()));
        String operator = "the q-tree sink";
        StateLayout layout = StateLayout.choose(operator, managedState, getKeyedStateBackend(), context);
        // Registered on either layout, so that a savepoint's serializers are checked on the heap backend too.
        FlinkQTreeStore<T> store = new FlinkQTreeStore<>(context.getKeyedStateStore(), payloads);
        if (layout == StateLayout.MANAGED) {
            managed = store;
            return;
        }
        StateLayout.checkNoManagedState(operator, getKeyedStateBackend(), List.of(StateNames.QTREE_ENTRIES));
        int nodes = plan.qTree().size();
        // Every q-tree entry's key holds the sink's key (the shared variable's value, or a cell of its own
        // key group), so one store per key group holds the joins of its keys side by side.
        parts = KeyGroupStates.restore(
                getKeyedStateBackend(),
                context,
                () -> new MemoryQTreeStore<>(nodes, MemoryMaps.PLAIN),
                new Codec<>(nodes, new QTreeEntrySerializer<>(payloads)),
                false);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (parts != null) {
            parts.snapshot(context);
        }
    }

    @Override
    public void open() throws Exception {
        crossings = getMetricGroup().counter(Metrics.BORDER_CROSSINGS);
        failed = getMetricGroup().counter(Metrics.FAILED_UPDATES);
        super.open();
    }

    private QTreeStore<T> current() {
        return managed != null ? managed : parts.current();
    }

    @Override
    protected long epochOf(RootUpdate<T> u) {
        return u.epoch();
    }

    @Override
    protected void apply(RootUpdate<T> u) {
        long before = join.crossings();
        try {
            join.add(current(), u.tree(), u.tuple(), u.payload());
        } catch (ArithmeticException e) {
            failed.inc();
            output.collect(
                    deadLetters,
                    new StreamRecord<>(new DeadLetter(
                            "epoch " + u.epoch(),
                            "delta of " + plan.viewTrees().get(u.tree()).displayName() + " at " + u.tuple()
                                    + " not added: " + e.getMessage(),
                            u.toString())));
        }
        crossings.inc(join.crossings() - before);
    }

    @Override
    protected List<Group<T>> resultGroups() throws Exception {
        return groups(StateNames.QTREE_ENTRIES, false);
    }

    @Override
    protected List<Group<T>> changedGroups() throws Exception {
        return groups(StateNames.QTREE_DIRTY, true);
    }

    /** Managed layout: one group per key with entries in {@code state}; in memory: the stores. */
    private List<Group<T>> groups(String state, boolean changed) throws Exception {
        List<Group<T>> out = new ArrayList<>();
        if (managed == null) {
            for (MemoryQTreeStore<T> s : parts.all()) {
                if (!changed || s.dirtyCount() > 0) {
                    out.add(new Group<>(null, s));
                }
            }
            return out;
        }
        List<Object> keys = new ArrayList<>();
        try (Stream<?> stored = getKeyedStateBackend().getKeys(state, VoidNamespace.INSTANCE)) {
            stored.forEach(keys::add);
        }
        for (Object key : keys) {
            out.add(new Group<>(key, managed));
        }
        return out;
    }

    @Override
    protected void selectGroup(Group<T> group) {
        if (group.key() != null) {
            setCurrentKey(group.key());
        }
        selected = group.store();
    }

    @Override
    protected void groupDone(Group<T> group) {
        selected = null;
    }

    @Override
    protected ResultCursor<T> results() {
        return join.cursor(selected);
    }

    @Override
    protected long emitChanges(long id, boolean deterministic) {
        long[] rows = {0};
        join.trigger(selected, c -> rows[0] += emitChange(id, deterministic, c));
        return rows[0];
    }

    /** What a trigger reads at a time: a key of the managed layout (then its store), or a key group's store. */
    record Group<T>(Object key, QTreeStore<T> store) {}

    /** Writes a key group's store: per node its entries, then the dirty marks (changelog). */
    static final class Codec<T> implements KeyGroupStates.Codec<MemoryQTreeStore<T>> {
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
