package io.flinkivm.flink.viewtree;

import io.flinkivm.core.engine.viewtree.CompiledPlan;
import io.flinkivm.core.engine.viewtree.ViewTreeLogic;
import io.flinkivm.core.engine.viewtree.ViewTreeStore;
import io.flinkivm.core.partition.Shares;
import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.common.CellFanOut;
import io.flinkivm.flink.common.CellLayout;
import io.flinkivm.flink.common.ClosingWindows;
import io.flinkivm.flink.common.Epochs;
import io.flinkivm.flink.common.HeldBack;
import io.flinkivm.flink.common.Metrics;
import io.flinkivm.flink.common.RootDeltaBatch;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.common.StateTtl;
import io.flinkivm.flink.common.WindowClose;
import io.flinkivm.flink.sink.EpochCuts;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.Delta;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.RootUpdate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * One whole view tree in one keyed operator. Every view of a tree has the tree's root schema (its
 * free variables) in its key, so the operator is keyed by the root tuple, and an atom's delta goes
 * from the atom up to the root in one call of core's {@link ViewTreeLogic}: one state read and write
 * per stateful view on the way. The views live in managed keyed state or, on the heap backend, in the
 * operator's own hash maps per key group: {@link TreeViews}, chosen once. The root view itself lives in the sink, once: the operator sends
 * the root view's delta ({@link RootUpdate}) to the one sink subtask of its value of the shared
 * variable, or to the cells of the sink's HyperCube that agree with it.
 *
 * <p>A tree whose root schema is empty (an aggregate, or a part of a disconnected query) has a single
 * root tuple, the empty one, so it is keyed by its top bound variable instead (which every view of
 * the tree has in its key); each subtask sums the root deltas of an epoch into a partial aggregate
 * and sends it to every sink cell when the epoch ends, and the sink adds them up. A sink then
 * receives per epoch one record per tree subtask, not one per insert.
 *
 * <p>Deltas of the lowest open epoch are applied when they arrive; later ones wait ({@link HeldBack}).
 * Root deltas wait in a small batch ({@code batchSize} root tuples) that sums the deltas of each root
 * tuple, as Flink SQL's mini-batch does.
 *
 * <p>A tree whose root schema holds a window variable ({@link WindowClose}) runs as a two-input
 * operator: input 2 is the ingest subtasks' epoch ends, broadcast, from which it knows the event time
 * of each epoch cut ({@link EpochCuts}). Once the watermark passes a cut, every delta up to it has been
 * applied, and the keys whose windows closed at its event time are dropped whole ({@link
 * ClosingWindows}); the views then live in Flink's managed keyed state on every backend.
 */
@Internal
public final class ViewTreeOperator<T> extends AbstractStreamOperator<RootUpdate<T>>
        implements OneInputStreamOperator<Delta<T>, RootUpdate<T>>,
                TwoInputStreamOperator<Delta<T>, EpochEnd, RootUpdate<T>>,
                Triggerable<Object, VoidNamespace> {
    private static final long serialVersionUID = 1L;

    private final ViewTreePlan plan;
    private final Semiring<T> semiring;
    private final int tree;
    private final TypeInformation<T> payloadType;
    private final TypeInformation<Delta<T>> deltaType;
    private final TypeInformation<RootUpdate<T>> updateType;
    private final OutputTag<DeadLetter> deadLetters;
    /** The sink's cells, or null when the sink is keyed by a shared variable's value. */
    private final Shares sinkShares;

    private final int sinkParallelism;
    private final int sinkMaxParallelism;
    private final int batchSize;
    private final boolean managedState;
    private final StateTtl stateTtl;
    /** When a key's views go, for a tree keyed by a window variable; null: kept. */
    private final WindowClose windowClose;

    private transient String name;
    private transient boolean aggregate;
    private transient ViewTreeLogic<T> walk;
    /** The tree's stateful views, in the layout chosen in {@code initializeState}. */
    private transient TreeViews<T> views;

    private transient HeldBack<Delta<T>> heldBack;
    private transient CellLayout layout;
    /** Where a root update goes among the sink's cells, or null. */
    private transient CellFanOut cells;

    private transient TreeMap<Long, T> partials;
    /** Root deltas not sent yet, summed per root tuple, all of one major epoch ({@link Epochs}). */
    private transient RootDeltaBatch<T> batch;
    /** Sends a root tuple's sum to the sink, stamped {@link #batchEpoch}. */
    private transient RootDeltaBatch.Sink<T> send;

    /** The latest epoch in the batch: its stamp (the same major as all its deltas, so held back alike). */
    private transient long batchEpoch;
    /** The earliest epoch in the batch: once the watermark passes it, the batch goes out. */
    private transient long batchFirst;

    private transient ListState<RootUpdate<T>> partialState;
    private transient long watermark;
    private transient Counter deltasIn;
    private transient Counter updatesOut;
    private transient Counter failed;

    /** With a window in the key: the views' states, which a closed key's timer clears; else null. */
    private transient StateTtl.KeyScope scope;
    /** With a window in the key: the epoch ends, for the event time of each cut; else null. */
    private transient EpochCuts cuts;

    private transient ListState<String> cutState;
    private transient ClosingWindows windows;

    /**
     * @param windowClose when a key's views go, for a tree keyed by a window variable (then a two-input
     *     operator whose input 2 is the epoch ends); null: the views are kept (a one-input operator)
     */
    public ViewTreeOperator(
            ViewTreePlan plan,
            Semiring<T> semiring,
            int tree,
            TypeInformation<T> payloadType,
            TypeInformation<Delta<T>> deltaType,
            TypeInformation<RootUpdate<T>> updateType,
            OutputTag<DeadLetter> deadLetters,
            Shares sinkShares,
            int sinkParallelism,
            int sinkMaxParallelism,
            int batchSize,
            boolean managedState,
            StateTtl stateTtl,
            WindowClose windowClose) {
        this.plan = plan;
        this.semiring = semiring;
        this.tree = tree;
        this.payloadType = payloadType;
        this.deltaType = deltaType;
        this.updateType = updateType;
        this.deadLetters = deadLetters;
        this.sinkShares = sinkShares;
        this.sinkParallelism = sinkParallelism;
        this.sinkMaxParallelism = sinkMaxParallelism;
        this.batchSize = batchSize;
        this.managedState = managedState;
        this.stateTtl = stateTtl;
        this.windowClose = windowClose;
    }

    /**
     * How many leading values of a view key of tree {@code t} its operator is keyed by: the root
     * schema, or the top bound variable when the root schema is empty.
     */
    public static int keyLength(ViewTree t) {
        return t.schema().isEmpty() ? 1 : t.schema().size();
    }

    /** The raw keyed state holds the tree's parts when it runs on the heap backend. */
    @Override
    protected boolean isUsingCustomRawKeyedState() {
        return true;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        ViewTree t = plan.viewTrees().get(tree);
        aggregate = t.schema().isEmpty();
        if (windowClose != null) {
            scope = StateTtl.scope(stateTtl.states(context.getKeyedStateStore()));
            cutState = context.getOperatorStateStore()
                    .getUnionListState(new ListStateDescriptor<>(StateNames.EPOCH_CUTS, Types.STRING));
            cuts = new EpochCuts();
            for (String s : cutState.get()) {
                // Every subtask saw the same epoch ends: any copy will do.
                cuts = EpochCuts.decode(s);
                break;
            }
        }
        views = TreeViews.create(
                t.displayName(),
                plan,
                tree,
                keyLength(t),
                managedState,
                stateTtl,
                scope,
                PayloadTypes.inState(
                        payloadType.createSerializer(getExecutionConfig().getSerializerConfig())),
                getKeyedStateBackend(),
                context,
                this);
        partials = new TreeMap<>();
        if (aggregate) {
            partialState = context.getOperatorStateStore()
                    .getListState(new ListStateDescriptor<>(StateNames.PARTIALS, updateType));
            for (RootUpdate<T> p : partialState.get()) {
                addPartial(p.epoch(), p.payload());
            }
        }
        if (sinkShares != null) {
            layout = CellLayout.restoreOr(context, CellLayout.create(sinkShares, sinkParallelism, sinkMaxParallelism));
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        heldBack.snapshot();
        views.snapshot(context);
        if (cuts != null) {
            cutState.update(List.of(cuts.encode()));
        }
        if (aggregate) {
            List<RootUpdate<T>> out = new ArrayList<>();
            partials.forEach((epoch, p) -> out.add(RootUpdate.of(epoch, tree, Tuple.EMPTY, p)));
            partialState.update(out);
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        ViewTree t = plan.viewTrees().get(tree);
        name = t.displayName();
        CompiledPlan compiled = new CompiledPlan(plan);
        walk = new ViewTreeLogic<>(semiring, compiled);
        if (layout != null) {
            cells = new CellFanOut(layout, t.schema());
        }
        heldBack = new HeldBack<>(this, deltaType, Delta::epoch);
        batch = new RootDeltaBatch<>(semiring);
        send = (rootTuple, sum) -> toSink(RootUpdate.of(batchEpoch, tree, rootTuple, sum));
        watermark = Long.MIN_VALUE;
        deltasIn = getMetricGroup().counter(Metrics.DELTAS_IN);
        updatesOut = getMetricGroup().counter(Metrics.DELTAS_OUT);
        failed = getMetricGroup().counter(Metrics.FAILED_UPDATES);
        getMetricGroup().gauge(Metrics.HELD_BACK, () -> heldBack.size());
        if (windowClose != null) {
            windows = ClosingWindows.of(windowClose, this, cuts.eventTime());
        }
    }

    @Override
    public void processElement(StreamRecord<Delta<T>> element) throws Exception {
        Delta<T> d = element.getValue();
        if (windows != null && !windows.admit(getCurrentKey())) {
            // The ingest lets no row of a closed window in, so this is not expected; never applied.
            failed.inc();
            output.collect(
                    deadLetters,
                    new StreamRecord<>(new DeadLetter(
                            Epochs.describeInsert(d.insert()),
                            "late: the windows of key " + getCurrentKey() + " of " + name + " closed at event time "
                                    + Instant.ofEpochMilli(windows.closesAt(getCurrentKey())),
                            d.toString())));
            return;
        }
        if (!heldBack.holds(d)) {
            apply(d);
        }
    }

    @Override
    public void processElement1(StreamRecord<Delta<T>> element) throws Exception {
        processElement(element);
    }

    /** An ingest subtask's epoch end (a tree keyed by a window only). */
    @Override
    public void processElement2(StreamRecord<EpochEnd> element) {
        cuts.add(element.getValue());
    }

    /** The current key's windows have all closed: its views go. */
    @Override
    public void onEventTime(InternalTimer<Object, VoidNamespace> timer) {
        scope.clearCurrentKey();
        windows.closed(timer.getKey());
    }

    @Override
    public void onProcessingTime(InternalTimer<Object, VoidNamespace> timer) {
        // The trees set event-time timers only.
    }

    /**
     * The watermark (epochs; with a window in the key, the smaller of both inputs'). It is passed on,
     * but moves no timer: the window timers move with the cuts' event time, once every delta up to the
     * cut has been applied.
     */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        watermark = mark.getTimestamp();
        heldBack.advance(watermark, this::apply);
        if (cuts != null) {
            for (long e = cuts.next(watermark); e >= 0; e = cuts.next(watermark)) {
                windows.advance(cuts.take(e).eventTime());
            }
        }
        if (batch.size() > 0 && batchFirst <= watermark) {
            flush();
        }
        while (!partials.isEmpty() && partials.firstKey() <= watermark) {
            Map.Entry<Long, T> p = partials.pollFirstEntry();
            toSink(RootUpdate.of(p.getKey(), tree, Tuple.EMPTY, p.getValue()));
        }
        output.emitWatermark(mark);
    }

    private void apply(Delta<T> d) throws Exception {
        deltasIn.inc();
        ViewTreeStore<T> store = views.current();
        T delta;
        try {
            delta = walk.walk(store, d.atom(), d.key(), d.payload());
        } catch (ArithmeticException e) {
            fail(d, e);
            return;
        }
        if (delta == null) {
            walk.commit(store);
            return;
        }
        if (aggregate) {
            try {
                addPartial(d.epoch(), delta);
            } catch (ArithmeticException e) {
                walk.discard();
                fail(d, e);
                return;
            }
            walk.commit(store);
            return;
        }
        Tuple rootKey = walk.rootKey();
        walk.commit(store);
        batch(d.epoch(), rootKey, delta);
    }

    /**
     * Keeps a root delta for the sink in the batch, where it is added to an earlier delta of the same
     * root tuple: a tree whose root tuples change often sends each changed one once per batch. The
     * batch holds epochs of one major (no snapshot cut falls between them); it goes out when a later
     * major's delta comes, when it holds {@code batchSize} root tuples, when the watermark passes its
     * earliest epoch (so a watermark still tells the sink that all its epochs' deltas arrived), and
     * before a checkpoint barrier, so it is never part of a checkpoint.
     */
    private void batch(long epoch, Tuple rootKey, T delta) {
        if (batchSize <= 1) {
            toSink(RootUpdate.of(epoch, tree, rootKey, delta));
            return;
        }
        if (batch.size() > 0 && Epochs.endOfMajor(epoch) != Epochs.endOfMajor(batchEpoch)) {
            flush();
        }
        if (batch.size() == 0) {
            batchFirst = epoch;
            batchEpoch = epoch;
        } else {
            batchFirst = Math.min(batchFirst, epoch);
            batchEpoch = Math.max(batchEpoch, epoch);
        }
        if (batch.add(rootKey, delta, send) && batch.size() >= batchSize) {
            flush();
        }
    }

    private void flush() {
        batch.drain(send);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        flush();
    }

    @Override
    public void finish() throws Exception {
        flush();
        super.finish();
    }

    private void addPartial(long epoch, T delta) {
        T sum = partials.get(epoch);
        partials.put(epoch, sum == null ? delta : semiring.plus(sum, delta));
    }

    private void fail(Delta<T> d, ArithmeticException e) {
        failed.inc();
        output.collect(
                deadLetters,
                new StreamRecord<>(new DeadLetter(
                        Epochs.describeInsert(d.insert()),
                        "update of " + name + " failed: " + e.getMessage(),
                        d.toString())));
    }

    private void toSink(RootUpdate<T> u) {
        if (cells == null) {
            updatesOut.inc();
            output.collect(new StreamRecord<>(u));
            return;
        }
        int n = cells.route(u.tuple());
        for (int i = 0; i < n; i++) {
            updatesOut.inc();
            output.collect(new StreamRecord<>(u.toCell(cells.key(i))));
        }
    }
}
