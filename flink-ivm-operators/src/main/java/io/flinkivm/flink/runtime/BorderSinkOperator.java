package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.BorderJoin;
import io.flinkivm.core.engine.join.BagJoinMaps;
import io.flinkivm.core.engine.join.BagJoinStore;
import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.engine.join.MemoryJoinRecordStore;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.state.FlinkJoinMaps;
import io.flinkivm.flink.state.FlinkJoinRecordStore;
import io.flinkivm.flink.state.KeyGroupStates;
import io.flinkivm.flink.state.MemoryJoinMaps;
import io.flinkivm.flink.state.MemoryMapCodec;
import io.flinkivm.flink.state.StateNames;
import io.flinkivm.flink.state.TaggedTuple;
import io.flinkivm.flink.types.JoinRecordSerializer;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.TupleSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * The sink above the border: the root views, one record per root tuple with its payload and its place
 * in the Boolean full join of the root tuples, in core's {@link BorderJoin}; the cyclic plan also
 * keeps the bags of its tree decomposition. A root view's delta ({@link RootUpdate}) is added to its
 * tuple's payload, and the tuple crosses the border with its first one. A trigger enumerates the result
 * with each payload read from the records the enumeration visits (a snapshot), or, in changelog mode,
 * only the result tuples whose payload changed since the previous trigger, from the root tuples that
 * changed ({@link BorderJoin#trigger}).
 *
 * <p>Keyed by the value of a free variable that every root schema has, when there is one: each root
 * update then belongs to one key, and the join restricted to one value of the variable is the join of
 * the restricted root views (bags included). Otherwise keyed by the cells of a HyperCube over the free
 * variables: each root update reaches the cells that agree with its values, each result tuple is
 * produced in exactly one cell, and each cell keeps its own join (and bags). On the heap backend the
 * state lives in the operator's own hash maps, per key group ({@link KeyGroupStates}), otherwise in
 * three keyed map states ({@link FlinkJoinRecordStore}) and, for the cyclic plan, the bags' indexes.
 */
public final class BorderSinkOperator<T> extends SnapshotSinkOperator<RootUpdate<T>, T> {
    private static final long serialVersionUID = 3L;
    /**
     * Records a trigger keeps in memory on RocksDB: the root's records are scanned in key order, the
     * other nodes' are read by key, many of them again and again (a small root view joined with a
     * large one); about 100 bytes each.
     */
    private static final int READ_CACHE = 100_000;

    private final ViewTreePlan plan;
    private final Semiring<T> semiring;
    private final TypeInformation<T> payloadType;
    private final OutputTag<DeadLetter> deadLetters;
    private final boolean managedState;

    private transient BorderJoin<T> border;
    private transient FlinkJoinRecordStore<T> managedRecords;
    private transient BagJoinStore managedBags;
    /** The state in this operator's own memory (heap backend), per key group, or null. */
    private transient KeyGroupStates<Part<T>> memory;
    /** The records (and bag indexes) of the group selected for a trigger. */
    private transient JoinRecordStore<T> selectedRecords;

    private transient TypeSerializer<T> payloadSerializer;
    private transient Counter crossings;
    private transient Counter failed;
    private transient boolean restored;
    /** Live join tuples (root tuples, or bag tuples) in this subtask's state at open; the gauge values. */
    private transient long liveAtOpen;

    private transient volatile long liveTuples;
    /** Per bag: its tuples in this subtask's state at open; the gauge values. */
    private transient long[] bagTuplesAtOpen;

    private transient AtomicLongArray bagTuples;

    /** One key group's state in this operator's memory: the records and list heads, and the bag indexes. */
    static final class Part<T> {
        final MemoryJoinRecordStore<T> records;
        final MemoryJoinMaps bagMaps;
        final BagJoinStore bags;

        Part(BorderJoin<T> border) {
            records = new MemoryJoinRecordStore<>(border.layout(), border.extraIds());
            bagMaps = border.isCyclic() ? new MemoryJoinMaps() : null;
            bags = border.isCyclic() ? new BagJoinMaps(border.bagLayout(), bagMaps) : null;
        }
    }

    /**
     * Writes a part: the records of each id, the list heads, the dirty marks (changelog), then the
     * bags' indexes.
     */
    private final class PartCodec implements KeyGroupStates.Codec<Part<T>> {
        @Override
        public void write(Part<T> part, DataOutputView out) throws IOException {
            JoinRecordSerializer<T> records = new JoinRecordSerializer<>(payloadSerializer);
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
            Part<T> part = new Part<>(border());
            JoinRecordSerializer<T> records = new JoinRecordSerializer<>(payloadSerializer);
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

    /**
     * @param changelog emit the changed result tuples at each trigger instead of the whole result
     * @param updateBefore in changelog mode, emit an update's old payload ({@code -U}) before its new one
     * @param managedState keep the state in Flink's managed keyed state even on the heap backend
     */
    public BorderSinkOperator(
            ViewTreePlan plan,
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

    private BorderJoin<T> border() {
        if (border == null) {
            border = new BorderJoin<>(plan, semiring, changelog());
        }
        return border;
    }

    /** The raw keyed state holds the sink's parts when it runs on the heap backend. */
    @Override
    protected boolean isUsingCustomRawKeyedState() {
        return true;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        restored = context.isRestored();
        payloadSerializer = PayloadTypes.inState(
                payloadType.createSerializer(getExecutionConfig().getSerializerConfig()));
        if (!managedState && KeyGroupStates.fits(getKeyedStateBackend())) {
            // One part per key group, whose keys' joins may share maps: every join key of the acyclic
            // plan has the sink's key in it (a shared variable's value, or a cell of its own key
            // group). A bag need not have the shared variable, so the cyclic plan keeps a part per key.
            memory = KeyGroupStates.restore(
                    getKeyedStateBackend(), context, () -> new Part<>(border()), new PartCodec(), border().isCyclic());
        } else if (context.getRawKeyedStateInputs().iterator().hasNext()) {
            throw new IllegalStateException("the sink: the checkpoint or savepoint holds the in-memory state of the"
                    + " hashmap state backend; restore it with state.backend.type: hashmap (or start without it)");
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (memory != null) {
            memory.snapshot(context);
        }
    }

    @Override
    public void open() throws Exception {
        BorderJoin<T> b = border();
        managedRecords = new FlinkJoinRecordStore<>(getRuntimeContext(), b.layout(), payloadSerializer);
        FlinkJoinMaps flinkMaps = b.isCyclic() ? new FlinkJoinMaps(getRuntimeContext()) : null;
        managedBags = flinkMaps == null ? null : new BagJoinMaps(b.bagLayout(), flinkMaps);
        if (memory != null) {
            if (restored && !super.resultGroups().isEmpty()) {
                throw new IllegalStateException("the sink: the checkpoint or savepoint holds managed keyed state (a"
                        + " rocksdb job, or one with IvmOptions.withManagedState); restore it with that state backend");
            }
            managedRecords = null;
            managedBags = null;
        }
        crossings = getMetricGroup().counter(Metrics.BORDER_CROSSINGS);
        failed = getMetricGroup().counter(Metrics.FAILED_UPDATES);
        registerJoinSizeGauges();
        super.open();
    }

    /**
     * Gauges of the join's size, counted in the state once when it was restored (so they hold after
     * a restore or rescaling) and kept up to date from the join's counters after that.
     */
    private void registerJoinSizeGauges() throws Exception {
        JoinLayout layout = border.layout();
        int nodes = layout.nodeCount();
        bagTuplesAtOpen = new long[border.isCyclic() ? nodes : 0];
        bagTuples = new AtomicLongArray(bagTuplesAtOpen.length);
        liveAtOpen = 0;
        if (restored) {
            for (Object group : resultGroups()) {
                selectGroup(group);
                countRecords(nodes);
                groupDone();
            }
        }
        publishSizes();
        getMetricGroup().gauge(Metrics.JOIN_LIVE_TUPLES, () -> liveTuples);
        if (border.isCyclic()) {
            getMetricGroup().gauge(Metrics.BAG_TUPLES, () -> {
                long total = 0;
                for (int b = 0; b < bagTuples.length(); b++) {
                    total += bagTuples.get(b);
                }
                return total;
            });
            for (int b = 0; b < nodes; b++) {
                int bag = b;
                getMetricGroup().addGroup("bag", String.valueOf(b)).gauge(Metrics.BAG_TUPLES, () -> bagTuples.get(bag));
            }
        }
    }

    /** Adds the selected group's live join tuples (and bag tuples) to the counts at open. */
    private void countRecords(int nodes) {
        if (selectedRecords instanceof MemoryJoinRecordStore<T> m) {
            for (int id = 0; id < nodes; id++) {
                for (Iterator<Map.Entry<Tuple, JoinRecord<T>>> it =
                                m.recordMap(id).entries();
                        it.hasNext(); ) {
                    count(id, it.next().getValue());
                }
            }
            return;
        }
        for (Iterator<Map.Entry<TaggedTuple, JoinRecord<T>>> it = managedRecords.records(); it.hasNext(); ) {
            Map.Entry<TaggedTuple, JoinRecord<T>> e = it.next();
            if (e.getKey().tag() < nodes) {
                count(e.getKey().tag(), e.getValue());
            }
        }
    }

    private void count(int node, JoinRecord<T> r) {
        if (r.isLive()) {
            liveAtOpen++;
        }
        if (bagTuplesAtOpen.length > 0) {
            bagTuplesAtOpen[node]++;
        }
    }

    private void publishSizes() {
        liveTuples = liveAtOpen + border.madeLive();
        for (int b = 0; b < bagTuplesAtOpen.length; b++) {
            bagTuples.set(b, bagTuplesAtOpen[b] + border.bagTuples(b));
        }
    }

    /** The value of the {@link Metrics#JOIN_LIVE_TUPLES} gauge. */
    long liveJoinTuples() {
        return liveTuples;
    }

    /** The value of bag {@code bag}'s {@link Metrics#BAG_TUPLES} gauge (cyclic plans). */
    long bagTuples(int bag) {
        return bagTuples.get(bag);
    }

    @Override
    protected long epochOf(RootUpdate<T> u) {
        return u.epoch();
    }

    @Override
    protected void apply(RootUpdate<T> u) {
        JoinRecordStore<T> records;
        BagJoinStore bags;
        if (memory == null) {
            records = managedRecords;
            bags = managedBags;
        } else {
            Part<T> p = memory.current();
            records = p.records;
            bags = p.bags;
        }
        try {
            if (border.add(records, bags, u.tree(), u.tuple(), u.payload())) {
                crossings.inc();
                publishSizes();
            }
        } catch (ArithmeticException e) {
            failed.inc();
            // One dead letter per cell that holds the root tuple: each of them refuses the same sum.
            String what = u.tuple().arity() == 0 ? "partial aggregate of " : "delta of ";
            output.collect(
                    deadLetters,
                    new StreamRecord<>(new DeadLetter(
                            "epoch " + u.epoch(),
                            what + plan.viewTrees().get(u.tree()).displayName() + " at " + u.tuple() + " not added: "
                                    + e.getMessage(),
                            u.toString())));
        }
    }

    @Override
    protected String keyedStateName() {
        return StateNames.JOIN_RECORDS;
    }

    @Override
    protected List<Object> resultGroups() throws Exception {
        return memory == null ? super.resultGroups() : new ArrayList<>(memory.all());
    }

    @Override
    protected List<Object> changedGroups() throws Exception {
        if (memory == null) {
            return keysOf(StateNames.JOIN_DIRTY);
        }
        List<Object> out = new ArrayList<>();
        for (Part<T> p : memory.all()) {
            if (p.records.dirtyCount() > 0) {
                out.add(p);
            }
        }
        return out;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected void selectGroup(Object group) {
        if (memory == null) {
            super.selectGroup(group);
            selectedRecords = managedRecords;
            managedRecords.startReads(READ_CACHE);
        } else {
            selectedRecords = ((Part<T>) group).records;
        }
    }

    @Override
    protected void groupDone() {
        if (memory == null) {
            managedRecords.endReads();
        }
    }

    @Override
    protected ResultCursor<T> results() {
        return border.cursor(selectedRecords);
    }

    @Override
    protected long emitChanges(long id, boolean deterministic) {
        long[] rows = {0};
        border.trigger(selectedRecords, c -> rows[0] += emitChange(id, deterministic, c));
        return rows[0];
    }
}
