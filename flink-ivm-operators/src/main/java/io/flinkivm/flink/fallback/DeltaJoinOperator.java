package io.flinkivm.flink.fallback;

import io.flinkivm.core.engine.AbsentRowException;
import io.flinkivm.core.engine.LiveRows;
import io.flinkivm.core.engine.fallback.DeltaJoinLogic;
import io.flinkivm.core.engine.fallback.DeltaJoinStore;
import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.common.Epochs;
import io.flinkivm.flink.common.Metrics;
import io.flinkivm.flink.common.StateTtl;
import io.flinkivm.flink.common.WindowClose;
import io.flinkivm.flink.sink.SnapshotSinkOperator;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.Delta;
import io.flinkivm.flink.types.PayloadTypes;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * The fallback plan on Flink: core's {@link DeltaJoinLogic} over keyed state, with the result
 * materialized and emitted as snapshots, or as its changes since the previous trigger (the result
 * remembers the payloads of the tuples it changes, {@link io.flinkivm.core.engine.fallback.TrackedResult}). Keyed by the value of a free variable that every atom has,
 * when there is one, or else by the cells of a HyperCube over the free variables: each atom tuple
 * reaches the cells that agree with its values, so each result tuple is computed, from all of its
 * parts, in exactly one partition. An atom tuple's deltas are applied in the order the ingest sent
 * them (one channel), which keeps a self-join's one-atom-after-another semantics.
 */
@Internal
public final class DeltaJoinOperator<T> extends SnapshotSinkOperator<Delta<T>, T, FallbackState.Group<T>> {
    private static final long serialVersionUID = 3L;

    private final FallbackPlan plan;
    private final Semiring<T> semiring;
    private final TypeInformation<T> payloadType;
    private final OutputTag<DeadLetter> deadLetters;
    private final boolean cellKeyed;
    private final boolean managedState;

    private transient DeltaJoinLogic<T> logic;
    private transient FallbackState<T> state;
    /** The group selected for a trigger. */
    private transient FallbackState.Group<T> selected;

    private transient DeltaJoinStore<T> selectedStore;
    private transient Counter failed;
    /** Checks checked deletes against the relations ({@link Delta#isDelete}); over a ring only. */
    private transient LiveRows<T> rows;

    private transient Counter deadLetterCounter;
    private transient Counter absentRows;
    private transient Counter retractions;

    /**
     * @param cellKeyed whether the operator is keyed by HyperCube cells (else by a variable's value)
     * @param managedState whether to keep the state in Flink's managed keyed state on the heap backend too
     * @param stateTtl expire keyed state entries not written for this long ({@link StateTtl#NONE}: never)
     * @param windowClose when a key's state goes, when the operator is keyed by a window variable; null: kept
     * @param finalOnly in changelog mode, emit a window's groups only once it closed ({@code WindowEmit.FINAL})
     */
    public DeltaJoinOperator(
            FallbackPlan plan,
            Semiring<T> semiring,
            TypeInformation<T> payloadType,
            TypeInformation<Delta<T>> deltaType,
            OutputTag<DeadLetter> deadLetters,
            boolean changelog,
            boolean updateBefore,
            boolean cellKeyed,
            boolean managedState,
            StateTtl stateTtl,
            WindowClose windowClose,
            boolean finalOnly) {
        super(deltaType, changelog, updateBefore, stateTtl, windowClose, finalOnly);
        this.plan = plan;
        this.semiring = semiring;
        this.payloadType = payloadType;
        this.deadLetters = deadLetters;
        this.cellKeyed = cellKeyed;
        this.managedState = managedState;
    }

    @Override
    protected boolean isUsingCustomRawKeyedState() {
        return true;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        logic = new DeltaJoinLogic<>(plan, semiring);
        state = FallbackState.create(
                logic,
                managedState || dropsKeys(),
                sinkStates(context),
                cellKeyed,
                !plan.inputs().isInsertOnly(),
                PayloadTypes.inState(
                        payloadType.createSerializer(getExecutionConfig().getSerializerConfig())),
                changelog() ? semiring : null,
                getKeyedStateBackend(),
                context,
                this);
    }

    /** The fallback holds nothing of a key outside its keyed states (its changes are in {@code result-before}). */
    @Override
    protected void forgetKey() {}

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        state.snapshot(context);
    }

    @Override
    public void open() throws Exception {
        failed = getMetricGroup().counter(Metrics.FAILED_UPDATES);
        rows = semiring instanceof Ring<T> ring ? new LiveRows<>(ring) : null;
        deadLetterCounter = getMetricGroup().counter(Metrics.DEAD_LETTERS);
        absentRows = getMetricGroup().counter(Metrics.ABSENT_ROWS);
        retractions = getMetricGroup().counter(Metrics.RETRACTIONS);
        super.open();
    }

    @Override
    protected void closedWindow(Delta<T> d, String reason) {
        deadLetterCounter.inc();
        output.collect(
                deadLetters,
                new StreamRecord<>(new DeadLetter(Epochs.describeInsert(d.insert()), reason, d.toString())));
    }

    @Override
    protected long epochOf(Delta<T> d) {
        return d.epoch();
    }

    @Override
    protected void apply(Delta<T> d) {
        try {
            int atoms = plan.query().body().size();
            if (d.atom() >= atoms) {
                applyOutside(d, d.atom() - atoms);
            } else if (d.isDelete()) {
                applyDelete(d);
            } else {
                logic.insertAtom(state.store(), d.atom(), d.key(), d.payload());
            }
        } catch (ArithmeticException e) {
            failed.inc();
            output.collect(
                    deadLetters,
                    new StreamRecord<>(new DeadLetter(
                            Epochs.describeInsert(d.insert()), "update failed: " + e.getMessage(), d.toString())));
        }
    }

    /**
     * A change of a row of relation {@code relation} that no atom matches: kept with its payload, so
     * that a delete of it is checked as a row the query filters out still is.
     */
    private void applyOutside(Delta<T> d, int relation) {
        KeyValueState<Tuple, T> kept = state.outside(relation);
        String name = plan.query().relations().get(relation);
        T updated;
        try {
            updated = rows.after(kept, name, d.key(), d.payload(), d.isDelete());
        } catch (AbsentRowException e) {
            reject(d, name, e);
            return;
        }
        if (d.isDelete()) {
            retractions.inc();
        }
        rows.write(kept, d.key(), updated);
    }

    private void reject(Delta<T> d, String relation, AbsentRowException e) {
        if (d.reportAs() == null) {
            return;
        }
        absentRows.inc();
        deadLetterCounter.inc();
        output.collect(
                deadLetters,
                new StreamRecord<>(new DeadLetter(
                        d.reportAs(),
                        e.getMessage(),
                        ChangeKind.DELETE.shortString() + " " + relation + d.key() + " "
                                + semiring.format(d.payload()))));
    }

    /**
     * A checked delete: the atom's tuple must hold the payload (the relation keeps whole rows, so this
     * is the row check, {@link LiveRows}); then its inverse is inserted. A rejected one changes nothing;
     * the delta of the change that reports makes it a dead letter (the others reach the same verdict,
     * their tuples having seen the same changes).
     */
    private void applyDelete(Delta<T> d) {
        DeltaJoinStore<T> store = state.store();
        String relation = plan.query().body().get(d.atom()).relation();
        try {
            Tuple named = d.row() != null ? d.row() : d.key();
            rows.after(store.relation(d.atom()), d.key(), relation, named, d.payload(), true);
        } catch (AbsentRowException e) {
            reject(d, relation, e);
            return;
        }
        if (d.reportAs() != null) {
            retractions.inc();
        }
        logic.insertAtom(store, d.atom(), d.key(), rows.inverse(d.payload()));
    }

    /** The groups of this subtask with a result. */
    @Override
    protected List<FallbackState.Group<T>> resultGroups() throws Exception {
        return state.resultGroups();
    }

    /** The groups of this subtask whose result changed since the previous trigger. */
    @Override
    protected List<FallbackState.Group<T>> changedGroups() throws Exception {
        return state.changedGroups();
    }

    @Override
    protected void selectGroup(FallbackState.Group<T> group) {
        selected = group;
        selectedStore = group.select();
    }

    @Override
    protected void groupDone(FallbackState.Group<T> group) {
        selected = null;
        selectedStore = null;
    }

    @Override
    protected long emitChanges(long id, boolean deterministic) {
        long[] rows = {0};
        selected.changes(c -> rows[0] += emitChange(id, deterministic, c));
        return rows[0];
    }

    @Override
    protected ResultCursor<T> results() {
        return ResultCursor.over(logic.results(selectedStore));
    }
}
