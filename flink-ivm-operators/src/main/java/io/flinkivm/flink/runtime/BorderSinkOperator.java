package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.BorderJoin;
import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.state.FlinkJoinRecordStore;
import io.flinkivm.flink.state.KeyGroupStates;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.RootUpdate;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.flink.api.common.typeinfo.TypeInformation;
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
 * produced in exactly one cell, and each cell keeps its own join (and bags). The state is in the
 * layout chosen once, {@link SinkState}: three keyed map states ({@link FlinkJoinRecordStore}) and,
 * for the cyclic plan, the bags' indexes; or, on the heap backend, the operator's own hash maps per
 * key group ({@link KeyGroupStates}).
 */
public final class BorderSinkOperator<T> extends SnapshotSinkOperator<RootUpdate<T>, T, SinkState.Group<T>> {
    private static final long serialVersionUID = 3L;

    private final ViewTreePlan plan;
    private final Semiring<T> semiring;
    private final TypeInformation<T> payloadType;
    private final OutputTag<DeadLetter> deadLetters;
    private final boolean managedState;

    private transient BorderJoin<T> border;
    /** The sink's state, in the layout chosen in {@code initializeState}. */
    private transient SinkState<T> state;
    /** The records (and bag indexes) of the group selected for a trigger. */
    private transient JoinRecordStore<T> selectedRecords;

    private transient Counter crossings;
    private transient Counter failed;
    private transient boolean restored;
    /** Live join tuples (root tuples, or bag tuples) in this subtask's state at open; the gauge values. */
    private transient long liveAtOpen;

    private transient volatile long liveTuples;
    /** Per bag: its tuples in this subtask's state at open; the gauge values. */
    private transient long[] bagTuplesAtOpen;

    private transient AtomicLongArray bagTuples;

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
        state = SinkState.create(
                "the sink",
                border(),
                managedState,
                PayloadTypes.inState(
                        payloadType.createSerializer(getExecutionConfig().getSerializerConfig())),
                getKeyedStateBackend(),
                context,
                this);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        state.snapshot(context);
    }

    @Override
    public void open() throws Exception {
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
            for (SinkState.Group<T> group : resultGroups()) {
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
    protected long epochOf(RootUpdate<T> u) {
        return u.epoch();
    }

    @Override
    protected void apply(RootUpdate<T> u) {
        try {
            if (border.add(state.records(), state.bags(), u.tree(), u.tuple(), u.payload())) {
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
    protected List<SinkState.Group<T>> resultGroups() throws Exception {
        return state.resultGroups();
    }

    @Override
    protected List<SinkState.Group<T>> changedGroups() throws Exception {
        return state.changedGroups();
    }

    @Override
    protected void selectGroup(SinkState.Group<T> group) {
        selectedRecords = group.select();
    }

    @Override
    protected void groupDone(SinkState.Group<T> group) {
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
