package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.BagJoinMaps;
import io.flinkivm.core.engine.BooleanJoin;
import io.flinkivm.core.engine.BooleanJoinMaps;
import io.flinkivm.core.engine.CompiledBagJoin;
import io.flinkivm.core.engine.CompiledPlan;
import io.flinkivm.core.engine.CyclicBooleanJoin;
import io.flinkivm.core.engine.JoinLayout;
import io.flinkivm.core.engine.ResultTuple;
import io.flinkivm.core.engine.RootViewLogic;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.state.FlinkJoinMaps;
import io.flinkivm.flink.state.MapStateAdapter;
import io.flinkivm.flink.state.StateNames;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
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
 * empty schema arrives as partial aggregates, which every cell adds up.
 */
public final class BorderSinkOperator<T> extends SnapshotSinkOperator<RootUpdate<T>, T> {
    private static final long serialVersionUID = 2L;

    private final MaintenancePlan plan;
    private final Semiring<T> semiring;
    private final TypeInformation<T> payloadType;
    private final OutputTag<DeadLetter> deadLetters;

    private transient JoinLayout layout;
    private transient BooleanJoin join;
    private transient BooleanJoinMaps store;
    private transient CyclicBooleanJoin bagJoin;
    private transient BagJoinMaps bagStore;
    private transient FlinkJoinMaps maps;
    private transient MapStateAdapter<Tuple, T>[] rootPayloads;
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

    public BorderSinkOperator(MaintenancePlan plan, Semiring<T> semiring, TypeInformation<T> payloadType,
            TypeInformation<RootUpdate<T>> inputType, OutputTag<DeadLetter> deadLetters, boolean changelog) {
        super(inputType, changelog, payloadType);
        if (plan.kind() == PlanKind.FALLBACK_DELTA_JOIN) {
            throw new IllegalArgumentException("the border sink needs a p-hierarchical plan: " + plan);
        }
        this.plan = plan;
        this.semiring = semiring;
        this.payloadType = payloadType;
        this.deadLetters = deadLetters;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        restored = context.isRestored();
    }

    @Override
    @SuppressWarnings("unchecked")
    public void open() throws Exception {
        CompiledPlan compiled = new CompiledPlan(plan);
        maps = new FlinkJoinMaps(getRuntimeContext());
        if (plan.kind() == PlanKind.CYCLIC_P_HIERARCHICAL) {
            CompiledBagJoin bags = new CompiledBagJoin(plan);
            layout = bags;
            bagJoin = new CyclicBooleanJoin(bags);
            bagStore = new BagJoinMaps(bags, maps);
        } else {
            layout = compiled;
            join = new BooleanJoin(compiled);
            store = new BooleanJoinMaps(compiled, maps);
        }
        rootPayloads = new MapStateAdapter[compiled.treeCount()];
        for (int i = 0; i < rootPayloads.length; i++) {
            String name = StateNames.rootPayloads(i);
            rootPayloads[i] = new MapStateAdapter<>(getRuntimeContext().getMapState(
                    new MapStateDescriptor<>(name, TupleTypeInfo.INSTANCE, payloadType)), name);
        }
        joinInserts = getMetricGroup().counter(Metrics.BORDER_CROSSINGS);
        failed = getMetricGroup().counter(Metrics.FAILED_UPDATES);
        registerJoinSizeGauges();
        super.open();
    }

    /**
     * Gauges of the join's size, counted in the state once when it was restored (so they hold after
     * a restore or rescaling) and kept up to date from the join's return values after that.
     */
    private void registerJoinSizeGauges() {
        int nodes = layout.nodeCount();
        bagTuplesAtOpen = new long[bagJoin == null ? 0 : nodes];
        bagTuples = new AtomicLongArray(bagTuplesAtOpen.length);
        liveAtOpen = 0;
        liveMade = 0;
        if (restored) {
            for (int b = 0; b < nodes; b++) {
                long live = count(BooleanJoinMaps.liveHeadName(b)) + count(BooleanJoinMaps.liveNextName(b));
                liveAtOpen += live;
                if (bagJoin != null) {
                    bagTuplesAtOpen[b] = live + count(BooleanJoinMaps.missingName(b));
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

    /** Entries of the map {@code name} over all keys of this subtask. */
    private long count(String name) {
        List<Object> keys = new ArrayList<>();
        try (Stream<Object> all = getKeyedStateBackend().getKeys(name, VoidNamespace.INSTANCE)) {
            all.forEach(keys::add);
        }
        long n = 0;
        for (Object key : keys) {
            setCurrentKey(key);
            n += maps.size(name);
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
        boolean isNew = u.isNew();
        if (u.isPartial()) {
            T old = rootPayloads[u.tree()].get(u.tuple());
            T updated;
            try {
                updated = RootViewLogic.add(semiring, old, u.payload());
            } catch (ArithmeticException e) {
                failed.inc();
                output.collect(deadLetters, new StreamRecord<>(new DeadLetter("epoch " + u.epoch(),
                        "partial aggregate of " + plan.viewTrees().get(u.tree()).displayName() + " not added: "
                                + e.getMessage(), u.toString())));
                return;
            }
            rootPayloads[u.tree()].put(u.tuple(), updated);
            isNew = RootViewLogic.crossesBorder(semiring, old, updated);
        } else {
            rootPayloads[u.tree()].put(u.tuple(), u.payload());
        }
        if (isNew) {
            joinInserts.inc();
            if (bagJoin != null) {
                bagJoin.insert(bagStore, u.tree(), u.tuple());
            } else {
                liveMade += join.insert(store, u.tree(), u.tuple());
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
    protected Iterator<ResultTuple<T>> results() {
        if (bagJoin != null) {
            return bagJoin.results(bagStore, semiring, (tree, rootTuple) -> rootPayloads[tree].get(rootTuple));
        }
        return join.results(store, semiring, (tree, rootTuple) -> rootPayloads[tree].get(rootTuple));
    }
}
