package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.BagJoinMaps;
import io.flinkivm.core.engine.BooleanJoin;
import io.flinkivm.core.engine.BooleanJoinMaps;
import io.flinkivm.core.engine.CompiledBagJoin;
import io.flinkivm.core.engine.CompiledPlan;
import io.flinkivm.core.engine.CyclicBooleanJoin;
import io.flinkivm.core.engine.JoinLayout;
import io.flinkivm.core.engine.ResultTuple;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
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

/**
 * The sink above the border: keeps the root-view payloads and the Boolean full join of the indicator
 * relations in keyed state, and enumerates the result with payloads recovered by lookups. For the
 * acyclic plan the join is core's {@link BooleanJoin} over the root views; for the cyclic plan it is
 * core's {@link CyclicBooleanJoin}: the bags of the tree decomposition, each materialized by
 * worst-case-optimal delta joins, and the Boolean join over the bags. The state is laid out by
 * core's {@link BooleanJoinMaps} / {@link BagJoinMaps} over {@link FlinkJoinMaps}.
 *
 * <p>Keyed by a free variable shared by every root schema when there is one, otherwise by the
 * constant empty tuple (then at parallelism 1). Such a variable partitions the cyclic plan too: each
 * root update then belongs to exactly one value of it, and the full join restricted to one value is
 * the join of the restricted root views, so every partition keeps its own bags.
 */
public final class BorderSinkOperator<T> extends SnapshotOperator<RootUpdate<T>, T> {
    private static final long serialVersionUID = 1L;

    private final MaintenancePlan plan;
    private final Semiring<T> semiring;
    private final TypeInformation<T> payloadType;
    private final boolean keyedBySharedVariable;

    private transient JoinLayout layout;
    private transient BooleanJoin join;
    private transient BooleanJoinMaps store;
    private transient CyclicBooleanJoin bagJoin;
    private transient BagJoinMaps bagStore;
    private transient FlinkJoinMaps maps;
    private transient MapStateAdapter<Tuple, T>[] rootPayloads;
    private transient Counter joinInserts;
    private transient boolean restored;
    /** Live join tuples (over all join-tree nodes) in this subtask's state at open, and made live since. */
    private transient long liveAtOpen;
    private transient long liveMade;
    private transient volatile long liveTuples;
    /** Per bag: its tuples in this subtask's state at open; the gauge values. */
    private transient long[] bagTuplesAtOpen;
    private transient AtomicLongArray bagTuples;

    public BorderSinkOperator(MaintenancePlan plan, Semiring<T> semiring, TypeInformation<T> payloadType,
            TypeInformation<RootUpdate<T>> inputType, boolean keyedBySharedVariable, boolean inOrderInput,
            long periodMillis, boolean changelog) {
        super(inputType, inOrderInput, periodMillis, changelog, payloadType);
        if (plan.kind() == PlanKind.FALLBACK_DELTA_JOIN) {
            throw new IllegalArgumentException("the border sink needs a p-hierarchical plan: " + plan);
        }
        this.plan = plan;
        this.semiring = semiring;
        this.payloadType = payloadType;
        this.keyedBySharedVariable = keyedBySharedVariable;
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
    protected void process(RootUpdate<T> u, long timestamp) {
        rootPayloads[u.tree()].put(u.tuple(), u.payload());
        if (u.isNew()) {
            joinInserts.inc();
            if (bagJoin != null) {
                bagJoin.insert(bagStore, u.tree(), u.tuple());
            } else {
                liveMade += join.insert(store, u.tree(), u.tuple());
            }
            publishSizes();
        }
    }

    /**
     * The sink's state after a batch is the same in any order: a root tuple's updates all come from
     * the one upstream subtask that owns its key, in order, so its last payload wins either way, and
     * the Boolean join of a set of root tuples does not depend on the order they were added in.
     * Snapshots read the state only at watermarks, after whole batches. (The sort was a tenth of
     * the sink's time on TPC-H.)
     */
    @Override
    protected boolean ordersAcrossKeys() {
        return false;
    }

    @Override
    protected T zero() {
        return semiring.zero();
    }

    @Override
    protected String keyedStateName() {
        return keyedBySharedVariable ? BooleanJoinMaps.liveHeadName(layout.order()[0]) : null;
    }

    @Override
    protected Iterator<ResultTuple<T>> results() {
        if (bagJoin != null) {
            return bagJoin.results(bagStore, semiring, (tree, rootTuple) -> rootPayloads[tree].get(rootTuple));
        }
        return join.results(store, semiring, (tree, rootTuple) -> rootPayloads[tree].get(rootTuple));
    }
}
