package io.flinkivm.flink.border;

import io.flinkivm.core.engine.BorderJoin;
import io.flinkivm.core.engine.cyclic.BagJoinMaps;
import io.flinkivm.core.engine.cyclic.BagJoinStore;
import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.flink.common.KeyGroupStates;
import io.flinkivm.flink.common.Metrics;
import io.flinkivm.flink.common.StateLayout;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.sink.RootSinkOperator;
import io.flinkivm.flink.sink.RootSinkSpec;
import io.flinkivm.flink.types.RootUpdate;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.runtime.state.StateInitializationContext;

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
 * produced in exactly one cell, and each cell keeps its own join (and bags). The state is in the
 * layout chosen once, {@link BorderState}: three keyed map states ({@link FlinkJoinRecordStore}) and,
 * for the cyclic plan, the bags' indexes; or, on the heap backend, the operator's own hash maps per
 * key group ({@link KeyGroupStates}).
 */
@Internal
public final class BorderSinkOperator<T> extends RootSinkOperator<T, BorderState.Group<T>, BorderState<T>> {
    private static final long serialVersionUID = 4L;

    private final ViewTreePlan plan;

    private transient BorderJoin<T> border;
    /** The records (and bag indexes) of the group selected for a trigger. */
    private transient JoinRecordStore<T> selectedRecords;

    private transient boolean restored;
    /** Live join tuples (root tuples, or bag tuples) in this subtask's state at open; the gauge values. */
    private transient long liveAtOpen;

    private transient volatile long liveTuples;
    /** Per bag: its tuples in this subtask's state at open; the gauge values. */
    private transient long[] bagTuplesAtOpen;

    private transient AtomicLongArray bagTuples;

    public BorderSinkOperator(ViewTreePlan plan, RootSinkSpec<T> spec) {
        super("the sink", spec);
        this.plan = plan;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        restored = context.isRestored();
        super.initializeState(context);
    }

    @Override
    protected BorderState<T> createState(
            StateLayout layout, TypeSerializer<T> payloads, StateInitializationContext context) throws Exception {
        border = new BorderJoin<>(plan, semiring(), changelog());
        KeyedStateStore states = sinkStates(context);
        FlinkJoinRecordStore<T> store = new FlinkJoinRecordStore<>(
                states,
                border.layout(),
                payloads,
                layout == StateLayout.MANAGED ? this : null,
                layout == StateLayout.MANAGED && keyFilters());
        BagJoinStore bags = border.isCyclic() ? new BagJoinMaps(border.bagLayout(), new FlinkJoinMaps(states)) : null;
        if (layout == StateLayout.MANAGED) {
            BorderState.Managed<T> managed = new BorderState.Managed<>(store, bags, getKeyedStateBackend(), this);
            if (context.isRestored() && keyFilters()) {
                managed.rememberStoredKeys();
            }
            return managed;
        }
        checkNoManagedState(List.of(StateNames.JOIN_RECORDS));
        // One part per key group, whose keys' joins may share maps: every join key of the acyclic
        // plan has the sink's key in it (a shared variable's value, or a cell of its own key group).
        // A bag need not have the shared variable, so the cyclic plan keeps a part per key.
        return new BorderState.InMemory<>(KeyGroupStates.restore(
                getKeyedStateBackend(),
                context,
                () -> new BorderState.Part<>(border),
                new BorderState.PartCodec<>(border, payloads),
                border.isCyclic()));
    }

    @Override
    public void open() throws Exception {
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
            for (BorderState.Group<T> group : resultGroups()) {
                group.select();
                group.forEachRecord((id, r) -> {
                    if (id < nodes) {
                        count(id, r);
                    }
                });
                group.done();
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
    protected void apply(RootUpdate<T> u) {
        try {
            if (border.add(state.records(), state.bags(), u.tree(), u.tuple(), u.payload())) {
                crossed(1);
                publishSizes();
            }
        } catch (ArithmeticException e) {
            // One dead letter per cell that holds the root tuple: each of them refuses the same sum.
            String what = u.tuple().arity() == 0 ? "partial aggregate of " : "delta of ";
            refuse(u, what + plan.viewTrees().get(u.tree()).displayName(), e);
        }
    }

    @Override
    protected void selectGroup(BorderState.Group<T> group) {
        selectedRecords = group.select();
    }

    @Override
    protected void groupDone(BorderState.Group<T> group) {
        group.done();
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
