package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.join.BagJoinMaps;
import io.flinkivm.core.engine.join.BooleanJoin;
import io.flinkivm.core.engine.join.BooleanJoinMaps;
import io.flinkivm.core.engine.join.CompiledBagJoin;
import io.flinkivm.core.engine.join.CyclicBooleanJoin;
import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.engine.viewtree.RootViewLogic;
import io.flinkivm.core.plan.CyclicPHierarchicalPlan;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.state.FlinkJoinMaps;
import io.flinkivm.flink.state.KeyGroupStates;
import io.flinkivm.flink.state.MapStateAdapter;
import io.flinkivm.flink.state.MemoryJoinMaps;
import io.flinkivm.flink.state.MemoryMapCodec;
import io.flinkivm.flink.state.StateNames;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import org.apache.flink.api.common.state.MapStateDescriptor;
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
 * The sink above the border: keeps the root-view payloads and the Boolean full join of the indicator
 * relations in keyed state, and enumerates the result with payloads recovered by lookups. For the
 * acyclic plan the join is core's {@link BooleanJoin} over the root views; for the cyclic plan it is
 * core's {@link CyclicBooleanJoin}: the bags of the tree decomposition, each materialized by
 * worst-case-optimal delta joins, and the Boolean join over the bags. The state is laid out by
 * core's {@link BooleanJoinMaps} / {@link BagJoinMaps} over {@link FlinkJoinMaps}.
 *
 * <p>Keyed by the value of a free variable that every root schema has, when there is one: each root
 * update then belongs to one key, and the join restricted to one value of the variable is the join of
 * the restricted root views (bags included). Otherwise keyed by the cells of a HyperCube over the
 * free variables: each root update reaches the cells that agree with its values, each result tuple
 * is produced in exactly one cell, and each cell keeps its own join (and bags). A root view with an
 * empty schema arrives as partial aggregates, which every cell adds up; a root view without state
 * below it arrives as the atoms' deltas, straight from the ingest, which the sink adds to its
 * payloads the same way (and which cross the border when the sum first becomes non-zero).
 */
public final class BorderSinkOperator<T> extends SnapshotSinkOperator<RootUpdate<T>, T> {
    private static final long serialVersionUID = 2L;

    private final ViewTreePlan plan;
    private final Semiring<T> semiring;
    private final TypeInformation<T> payloadType;
    private final OutputTag<DeadLetter> deadLetters;
    private final boolean managedState;

    private transient JoinLayout layout;
    private transient BooleanJoin join;
    private transient CyclicBooleanJoin bagJoin;
    private transient CompiledBagJoin bagLayout;
    private transient CompiledPlan compiled;
    /** The managed keyed state (scoped to the current key), or null when the state is in {@link #memory}. */
    private transient Part<T> managed;
    /** The state in this operator's own memory (heap backend), per key group, or null. */
    private transient KeyGroupStates<Part<T>> memory;
    /** The group {@link #results()} enumerates. */
    private transient Part<T> selected;
    private transient TypeSerializer<T> payloadSerializer;
    private transient Counter joinInserts;
    private transient Counter failed;
    private transient boolean restored;
    /** Live join tuples (over all join-tree nodes) in this subtask's state at open, and made live since. */
    private transient long liveAtOpen;
    private transient long liveMade;
    private transient volatile long liveTuples;
    /** Per bag: its tuples in this subtask's state at open; the gauge values. */
    private transient long[] bagTuplesAtOpen;
    private transient AtomicLongArray bagTuples;

    /**
     * The sink's state: the Boolean join (or the bags and their join), the root payloads, and in
     * changelog mode the rows last emitted. In managed keyed state one part serves every key; in the
     * operator's memory there is one part per key group.
     */
    static final class Part<T> {
        final BooleanJoinMaps store;
        final BagJoinMaps bagStore;
        final KeyValueState<Tuple, T>[] rootPayloads;
        final KeyValueState<Tuple, T> emitted;
        final MemoryJoinMaps memoryMaps;

        @SuppressWarnings("unchecked")
        Part(BooleanJoinMaps.MapFactory maps, CompiledPlan compiled, CompiledBagJoin bags,
                java.util.function.Function<String, KeyValueState<Tuple, T>> payloadMap) {
            bagStore = bags == null ? null : new BagJoinMaps(bags, maps);
            store = bags == null ? new BooleanJoinMaps(compiled, maps) : bagStore;
            rootPayloads = new KeyValueState[compiled.treeCount()];
            for (int i = 0; i < rootPayloads.length; i++) {
                rootPayloads[i] = payloadMap.apply(StateNames.rootPayloads(i));
            }
            emitted = payloadMap.apply(StateNames.EMITTED);
            memoryMaps = maps instanceof MemoryJoinMaps m ? m : null;
        }
    }

    private Part<T> memoryPart() {
        return new Part<>(new MemoryJoinMaps(), compiled, bagLayout, name -> new OpenHashMap<>());
    }

    /** Writes a part: the join's maps in the order the layout made them, the root payloads, the emitted rows. */
    private final class PartCodec implements KeyGroupStates.Codec<Part<T>> {
        @Override
        @SuppressWarnings("unchecked")
        public void write(Part<T> part, DataOutputView out) throws IOException {
            part.memoryMaps.write(out);
            for (KeyValueState<Tuple, T> m : part.rootPayloads) {
                MemoryMapCodec.write((OpenHashMap<Tuple, T>) m, payloadSerializer, out);
            }
            MemoryMapCodec.write((OpenHashMap<Tuple, T>) part.emitted, payloadSerializer, out);
        }

        @Override
        @SuppressWarnings("unchecked")
        public Part<T> read(DataInputView in) throws IOException {
            Part<T> part = memoryPart();
            part.memoryMaps.read(in);
            for (KeyValueState<Tuple, T> m : part.rootPayloads) {
                MemoryMapCodec.read((OpenHashMap<Tuple, T>) m, payloadSerializer, in);
            }
            MemoryMapCodec.read((OpenHashMap<Tuple, T>) part.emitted, payloadSerializer, in);
            return part;
        }
    }

    public BorderSinkOperator(ViewTreePlan plan, Semiring<T> semiring, TypeInformation<T> payloadType,
            TypeInformation<RootUpdate<T>> inputType, OutputTag<DeadLetter> deadLetters, boolean changelog,
            boolean managedState) {
        super(inputType, changelog, payloadType);
        this.plan = plan;
        this.semiring = semiring;
        this.payloadType = payloadType;
        this.deadLetters = deadLetters;
        this.managedState = managedState;
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
        compiled = new CompiledPlan(plan);
        bagLayout = plan instanceof CyclicPHierarchicalPlan cyclic ? new CompiledBagJoin(cyclic) : null;
        payloadSerializer = payloadType.createSerializer(getExecutionConfig().getSerializerConfig());
        if (!managedState && KeyGroupStates.fits(getKeyedStateBackend())) {
            // One part per key group, whose keys' joins may share maps: every join key of the acyclic
            // plan has the sink's key in it (a shared variable's value, or a cell of its own key
            // group). A bag need not have the shared variable, so the cyclic plan keeps a part per key.
            memory = KeyGroupStates.restore(getKeyedStateBackend(), context, this::memoryPart, new PartCodec(),
                    bagLayout != null);
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
        if (bagLayout != null) {
            layout = bagLayout;
            bagJoin = new CyclicBooleanJoin(bagLayout);
        } else {
            layout = compiled;
            join = new BooleanJoin(compiled);
        }
        FlinkJoinMaps flinkMaps = new FlinkJoinMaps(getRuntimeContext());
        managed = new Part<>(flinkMaps, compiled, bagLayout, name -> new MapStateAdapter<>(getRuntimeContext().getMapState(
                new MapStateDescriptor<>(name, TupleTypeInfo.INSTANCE, payloadType)), name));
        if (memory != null) {
            if (restored && !super.resultGroups().isEmpty()) {
                throw new IllegalStateException("the sink: the checkpoint or savepoint holds managed keyed state (a"
                        + " rocksdb job, or one with IvmOptions.withManagedState); restore it with that state backend");
            }
            managed = null;
        }
        joinInserts = getMetricGroup().counter(Metrics.BORDER_CROSSINGS);
        failed = getMetricGroup().counter(Metrics.FAILED_UPDATES);
        registerJoinSizeGauges(flinkMaps);
        super.open();
    }

    private Part<T> part() {
        return memory == null ? managed : memory.current();
    }

    /**
     * Gauges of the join's size, counted in the state once when it was restored (so they hold after
     * a restore or rescaling) and kept up to date from the join's return values after that.
     */
    private void registerJoinSizeGauges(FlinkJoinMaps flinkMaps) {
        int nodes = layout.nodeCount();
        bagTuplesAtOpen = new long[bagJoin == null ? 0 : nodes];
        bagTuples = new AtomicLongArray(bagTuplesAtOpen.length);
        liveAtOpen = 0;
        liveMade = 0;
        if (restored) {
            for (int b = 0; b < nodes; b++) {
                long live = count(flinkMaps, BooleanJoinMaps.liveHeadName(b))
                        + count(flinkMaps, BooleanJoinMaps.liveNextName(b));
                liveAtOpen += live;
                if (bagJoin != null) {
                    bagTuplesAtOpen[b] = live + count(flinkMaps, BooleanJoinMaps.missingName(b));
                }
            }
        }
        publishSizes();
        getMetricGroup().gauge(Metrics.JOIN_LIVE_TUPLES, () -> liveTuples);
        if (bagJoin != null) {
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

    /** Entries of the map {@code name} over all keys (or key groups) of this subtask. */
    private long count(FlinkJoinMaps flinkMaps, String name) {
        if (memory != null) {
            long n = 0;
            for (Part<T> p : memory.all()) {
                n += p.memoryMaps.size(name);
            }
            return n;
        }
        List<Object> keys = new ArrayList<>();
        try (Stream<Object> all = getKeyedStateBackend().getKeys(name, VoidNamespace.INSTANCE)) {
            all.forEach(keys::add);
        }
        long n = 0;
        for (Object key : keys) {
            setCurrentKey(key);
            n += flinkMaps.size(name);
        }
        return n;
    }

    private void publishSizes() {
        if (bagJoin == null) {
            liveTuples = liveAtOpen + liveMade;
            return;
        }
        liveTuples = liveAtOpen + bagJoin.madeLive();
        for (int b = 0; b < bagTuplesAtOpen.length; b++) {
            bagTuples.set(b, bagTuplesAtOpen[b] + bagJoin.produced(b));
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
        Part<T> p = part();
        KeyValueState<Tuple, T> payloads = p.rootPayloads[u.tree()];
        boolean isNew = u.isNew();
        if (u.isPartial()) {
            T old = payloads.get(u.tuple());
            T updated;
            try {
                updated = RootViewLogic.add(semiring, old, u.payload());
            } catch (ArithmeticException e) {
                failed.inc();
                // One dead letter per cell that holds the root tuple: each of them refuses the same sum.
                String what = u.tuple().arity() == 0 ? "partial aggregate of " : "delta of ";
                output.collect(deadLetters, new StreamRecord<>(new DeadLetter("epoch " + u.epoch(),
                        what + plan.viewTrees().get(u.tree()).displayName() + " not added: " + e.getMessage(),
                        u.toString())));
                return;
            }
            payloads.put(u.tuple(), updated);
            isNew = RootViewLogic.crossesBorder(semiring, old, updated);
        } else {
            payloads.put(u.tuple(), u.payload());
        }
        if (isNew) {
            joinInserts.inc();
            if (bagJoin != null) {
                bagJoin.insert(p.bagStore, u.tree(), u.tuple());
            } else {
                liveMade += join.insert(p.store, u.tree(), u.tuple());
            }
            publishSizes();
        }
    }

    @Override
    protected T zero() {
        return semiring.zero();
    }

    @Override
    protected String keyedStateName() {
        return BooleanJoinMaps.liveHeadName(layout.order()[0]);
    }

    @Override
    protected List<Object> resultGroups() throws Exception {
        return memory == null ? super.resultGroups() : new ArrayList<>(memory.all());
    }

    @Override
    @SuppressWarnings("unchecked")
    protected void selectGroup(Object group) {
        if (memory == null) {
            super.selectGroup(group);
            selected = managed;
        } else {
            selected = (Part<T>) group;
        }
    }

    @Override
    protected KeyValueState<Tuple, T> emittedRows() {
        return selected.emitted;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Iterator<Map.Entry<Tuple, T>> emittedEntries() {
        return memory == null ? super.emittedEntries() : ((OpenHashMap<Tuple, T>) selected.emitted).entries();
    }

    @Override
    protected Iterator<ResultTuple<T>> results() {
        Part<T> p = selected;
        if (bagJoin != null) {
            return bagJoin.results(p.bagStore, semiring, (tree, rootTuple) -> p.rootPayloads[tree].get(rootTuple));
        }
        return join.results(p.store, semiring, (tree, rootTuple) -> p.rootPayloads[tree].get(rootTuple));
    }
}
