package io.flinkivm.flink.sink;

import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.flink.common.ClosingWindows;
import io.flinkivm.flink.common.HeldBack;
import io.flinkivm.flink.common.Metrics;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.common.StateTtl;
import io.flinkivm.flink.common.WindowClose;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.ResultRecord;
import java.time.Instant;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Base of the keyed operators that hold a query result and emit its snapshots or its changelog: the
 * border sink and the fallback. Input 1 is keyed (root updates or deltas), input 2 the ingest
 * subtasks' epoch ends, broadcast ({@link EpochEnd}). A record of the lowest open epoch is applied at
 * once, later ones wait ({@link HeldBack}). When the watermark passes epochs that ingest subtasks
 * ended, the operator takes, epoch by epoch, the trigger of that cut ({@link EpochCuts}) if an ingest
 * subtask asked for one at that epoch: it applies the records up to the epoch, then emits the rows of
 * its keys and an end marker with the cut: every result tuple (a snapshot), or, in changelog mode,
 * the result tuples whose payload changed since the previous trigger, each once
 * ({@link #emitChanges}). A trigger's id is the number of inserts it reflects; a cut that adds no
 * insert to the previous trigger is not emitted again. All sink subtasks see the same epoch ends, so
 * they emit the same triggers. A trigger reads the operator's state group by group (type {@code G}: a
 * Flink key, or a part of the operator's own state).
 *
 * <p>Under a state TTL ({@link StateTtl}) the keyed state that a subclass takes from {@link #sinkStates}
 * expires a whole Flink key at a time: each update of a key keeps it at least the TTL (a processing-time
 * timer at between 1 and 1.5 TTLs after the key's last update, moved at most once per half TTL), and
 * when the timer fires every entry of the key is dropped ({@link #forgetKey}).
 *
 * <p>Keyed by a window variable ({@link WindowClose}), the operator collects closed windows the same
 * way. A cut's event time is the smallest event-time watermark of the ingest subtasks' ends in it
 * ({@link EpochCuts}); after a cut that took a trigger (so that every change up to it has been
 * emitted), the operator moves its window timers ({@value StateNames#WINDOW_TIMERS}, one event-time
 * timer per key, at the time its windows have all closed) to that event time, and a timer that fires
 * drops every entry of its key. The timers live in Flink's timer service, so they are in the
 * checkpoints and follow their key groups on a rescale; they are driven by the cuts' event time only,
 * never by the epochs' watermark.
 */
@Internal
public abstract class SnapshotSinkOperator<IN, T, G> extends AbstractStreamOperator<ResultRecord<T>>
        implements TwoInputStreamOperator<IN, EpochEnd, ResultRecord<T>>, Triggerable<Object, VoidNamespace> {
    private static final long serialVersionUID = 2L;

    private final TypeInformation<IN> inputType;
    private final boolean changelog;
    private final boolean updateBefore;
    private final StateTtl ttl;
    private transient HeldBack<IN> heldBack;
    private transient EpochCuts cuts;
    private transient ListState<String> cutState;
    private transient long watermark;
    private transient Counter snapshots;
    private transient volatile long lastRows;
    private transient volatile long lastMillis;
    /** Under a TTL: the sink's keyed states, which {@link #forgetKey} clears; else null. */
    private transient StateTtl.KeyScope scope;
    /** Under a TTL: when the current key's state is dropped unless an update comes first. */
    private transient ValueState<Long> idleUntil;

    private transient InternalTimerService<VoidNamespace> idleTimers;
    private transient Counter expiredKeys;

    /** Keyed by a window variable: when a key's windows have closed; else null. */
    private final WindowClose windowClose;
    /** Emit a window's groups only once it has closed ({@link io.flinkivm.flink.WindowEmit#FINAL}). */
    private final boolean finalOnly;

    /** The timers of closing windows, moved by the cuts' event time; null without {@link #windowClose}. */
    private transient ClosingWindows windows;

    /**
     * @param changelog emit only the rows that changed since the previous trigger ({@code OutputMode.CHANGELOG})
     * @param updateBefore in changelog mode, emit an update's old payload ({@code -U}) before its new one
     * @param ttl drop a Flink key's state once no update reached it for this long ({@link StateTtl#NONE}: never)
     */
    protected SnapshotSinkOperator(
            TypeInformation<IN> inputType, boolean changelog, boolean updateBefore, StateTtl ttl) {
        this(inputType, changelog, updateBefore, ttl, null, false);
    }

    /**
     * @param windowClose when the state of a key can go, for an operator keyed by a window variable;
     *     null: its state is kept
     * @param finalOnly in changelog mode, emit a key's changes only at the first trigger whose cut its
     *     windows have closed at (needs {@code windowClose})
     */
    protected SnapshotSinkOperator(
            TypeInformation<IN> inputType,
            boolean changelog,
            boolean updateBefore,
            StateTtl ttl,
            WindowClose windowClose,
            boolean finalOnly) {
        if (finalOnly && (windowClose == null || !changelog)) {
            throw new IllegalArgumentException("emitting final rows only needs a changelog keyed by a window");
        }
        this.finalOnly = finalOnly;
        this.inputType = inputType;
        this.changelog = changelog;
        this.updateBefore = updateBefore;
        this.ttl = ttl;
        this.windowClose = windowClose;
    }

    /** Whether this operator emits a changelog rather than snapshots. */
    protected final boolean changelog() {
        return changelog;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        cutState = context.getOperatorStateStore()
                .getUnionListState(new ListStateDescriptor<>(StateNames.EPOCH_CUTS, Types.STRING));
        cuts = new EpochCuts();
        for (String s : cutState.get()) {
            // Every subtask saw the same epoch ends: any copy will do.
            cuts = EpochCuts.decode(s);
            break;
        }
        if (dropsKeys()) {
            scope = StateTtl.scope(context.getKeyedStateStore());
        }
        if (ttl.isSet()) {
            idleUntil = context.getKeyedStateStore()
                    .getState(new ValueStateDescriptor<>(StateNames.IDLE_UNTIL, LongSerializer.INSTANCE));
        }
    }

    /**
     * The keyed state store that a subclass takes its states from in {@code initializeState} (after
     * this class's): under a TTL one whose states {@link #forgetKey} clears per key.
     */
    protected final KeyedStateStore sinkStates(StateInitializationContext context) {
        return scope != null ? scope : context.getKeyedStateStore();
    }

    /**
     * Whether the sink drops a key's state whole: it expires ({@link StateTtl}) or its keys' windows
     * close ({@link WindowClose}). Its state is then in Flink's managed keyed state, without a key
     * filter (which could not forget a key).
     */
    protected final boolean dropsKeys() {
        return ttl.isSet() || windowClose != null;
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        heldBack.snapshot();
        cutState.update(List.of(cuts.encode()));
    }

    @Override
    public void open() throws Exception {
        super.open();
        heldBack = new HeldBack<>(this, inputType, this::epochOf);
        watermark = Long.MIN_VALUE;
        snapshots = getMetricGroup().counter(Metrics.SNAPSHOTS);
        getMetricGroup().gauge(Metrics.LAST_SNAPSHOT_ROWS, () -> lastRows);
        getMetricGroup().gauge(Metrics.LAST_ENUMERATION_MS, () -> lastMillis);
        getMetricGroup().gauge(Metrics.HELD_BACK, () -> heldBack.size());
        if (ttl.isSet()) {
            idleTimers = getInternalTimerService(StateNames.IDLE_TIMERS, VoidNamespaceSerializer.INSTANCE, this);
            expiredKeys = getMetricGroup().counter(Metrics.EXPIRED_KEYS);
        }
        if (windowClose != null) {
            // Restored, the timers start from the checkpoint's cuts' event time.
            windows = ClosingWindows.of(windowClose, this, cuts.eventTime());
        }
    }

    @Override
    public final void processElement1(StreamRecord<IN> element) throws Exception {
        IN value = element.getValue();
        if (idleTimers != null) {
            touch();
        }
        if (windows != null && !windows.admit(getCurrentKey())) {
            closedWindow(
                    value,
                    "late: the windows of key " + getCurrentKey() + " closed at event time "
                            + Instant.ofEpochMilli(windows.closesAt(getCurrentKey()))
                            + ", before this update (from a row of a relation that is not windowed)");
            return;
        }
        if (!heldBack.holds(value)) {
            apply(value);
        }
    }

    @Override
    public final void processElement2(StreamRecord<EpochEnd> element) {
        cuts.add(element.getValue());
    }

    /**
     * Keeps the current key at least a TTL from now: moves its timer to 1.5 TTLs from now when it is
     * due within one TTL (so one timer per half TTL of a key's updates).
     */
    private void touch() throws Exception {
        long now = getProcessingTimeService().getCurrentProcessingTime();
        Long until = idleUntil.value();
        if (until == null || until < now + ttl.millis()) {
            long next = now + ttl.millis() + ttl.millis() / 2;
            if (until != null) {
                idleTimers.deleteProcessingTimeTimer(VoidNamespace.INSTANCE, until);
            }
            idleTimers.registerProcessingTimeTimer(VoidNamespace.INSTANCE, next);
            idleUntil.update(next);
        }
    }

    /** The current key went without an update for its TTL: all its state goes. */
    @Override
    public void onProcessingTime(InternalTimer<Object, VoidNamespace> timer) throws Exception {
        Long until = idleUntil.value();
        if (until != null && until == timer.getTimestamp()) {
            scope.clearCurrentKey();
            idleUntil.clear();
            forgetKey();
            expiredKeys.inc();
        }
    }

    /** The current key's windows have all closed, and its rows were emitted: all its state goes. */
    @Override
    public void onEventTime(InternalTimer<Object, VoidNamespace> timer) throws Exception {
        scope.clearCurrentKey();
        forgetKey();
        if (idleUntil != null && idleUntil.value() != null) {
            idleTimers.deleteProcessingTimeTimer(VoidNamespace.INSTANCE, idleUntil.value());
            idleUntil.clear();
        }
        windows.closed(timer.getKey());
    }

    /**
     * Under a TTL, after the current key's states were cleared: drops what the subclass holds of the
     * key outside them (the changelog's marks held in memory).
     */
    protected abstract void forgetKey();

    /**
     * Called with the combined watermark of both inputs (epochs). It is passed on, but moves no timer:
     * the idle timers run on processing time, the window timers on the cuts' event time.
     */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        watermark = mark.getTimestamp();
        for (long e = cuts.next(watermark); e >= 0; e = cuts.next(watermark)) {
            heldBack.release(e, this::apply);
            EpochCuts.Cut cut = cuts.take(e);
            if (cut.snapshot() && cut.total() > cuts.lastTotal()) {
                cuts.emitted(cut.total());
                emitTrigger(cut);
            } else if (finalOnly && cut.snapshot() && cut.eventTime() > windows.time()) {
                // No insert since the previous trigger, but windows close: their final rows, under its id.
                emitTrigger(cut);
            }
            if (windows != null && cut.snapshot()) {
                // Every change up to the cut has been emitted: the windows closed at its event time go.
                windows.advance(cut.eventTime());
            }
        }
        heldBack.advance(watermark, this::apply);
        output.emitWatermark(mark);
    }

    private void emitTrigger(EpochCuts.Cut cut) throws Exception {
        long start = System.nanoTime();
        long id = cut.total();
        long rows = 0;
        for (G group : changelog ? changedGroups() : resultGroups()) {
            selectGroup(group);
            try {
                if (finalOnly && windows.closesAt(getCurrentKey()) > cut.eventTime()) {
                    // An open window: its changes wait, marked, until it closes.
                    continue;
                }
                rows += changelog ? emitChanges(id, cut.deterministic()) : emitAll(id, cut.deterministic());
            } finally {
                groupDone(group);
            }
        }
        output.collect(new StreamRecord<>(ResultRecord.end(id, id, rows, cut.deterministic(), cut.perSubtask())));
        snapshots.inc();
        lastRows = rows;
        lastMillis = (System.nanoTime() - start) / 1_000_000;
    }

    private long emitAll(long id, boolean deterministic) {
        long rows = 0;
        for (ResultCursor<T> c = results(); c.next(); ) {
            output.collect(new StreamRecord<>(ResultRecord.row(id, id, c.tuple(), c.payload(), deterministic)));
            rows++;
        }
        return rows;
    }

    /**
     * Emits one changed result tuple: {@code +I} if it is new, {@code -U} (with the old payload, if
     * asked for) and {@code +U} if its payload changed, {@code -D} if it left the result. Returns the
     * number of rows emitted.
     */
    protected final long emitChange(long id, boolean deterministic, ResultChange<T> c) {
        ResultRecord.Kind kind = c.payload() == null
                ? ResultRecord.Kind.DELETE
                : c.isInsert() ? ResultRecord.Kind.INSERT : ResultRecord.Kind.UPDATE_AFTER;
        long rows = 1;
        if (kind == ResultRecord.Kind.UPDATE_AFTER && updateBefore) {
            output.collect(new StreamRecord<>(ResultRecord.change(
                    id, id, ResultRecord.Kind.UPDATE_BEFORE, c.tuple(), c.previous(), deterministic)));
            rows++;
        }
        T payload = kind == ResultRecord.Kind.DELETE ? c.previous() : c.payload();
        output.collect(new StreamRecord<>(ResultRecord.change(id, id, kind, c.tuple(), payload, deterministic)));
        return rows;
    }

    /** The epoch of an input record. */
    protected abstract long epochOf(IN value);

    /** Sends an input record for a key whose windows have closed to the dead letters, with {@code reason}. */
    protected abstract void closedWindow(IN value, String reason);

    /** Applies one input record under its key, in epoch order. */
    protected abstract void apply(IN value) throws Exception;

    /** The groups of this subtask that may hold results, each selected with {@link #selectGroup} before {@link #results()}. */
    protected abstract List<G> resultGroups() throws Exception;

    /**
     * The groups of this subtask that may hold changes since the previous trigger (changelog mode),
     * each selected with {@link #selectGroup} before {@link #emitChanges}.
     */
    protected abstract List<G> changedGroups() throws Exception;

    /** Selects a group of {@link #resultGroups()} or {@link #changedGroups()}. */
    protected abstract void selectGroup(G group);

    /** Called after a trigger's rows of the group {@link #selectGroup} selected. */
    protected abstract void groupDone(G group);

    /** The results held in the selected group, read in place (no object per result tuple). */
    protected abstract ResultCursor<T> results();

    /**
     * In changelog mode, emits the changes of the selected group since the previous trigger (each
     * with {@link #emitChange}), forgets them, and returns how many rows it emitted.
     */
    protected abstract long emitChanges(long id, boolean deterministic) throws Exception;
}
