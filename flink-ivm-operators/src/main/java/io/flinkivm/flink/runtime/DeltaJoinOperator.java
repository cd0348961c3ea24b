package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.join.DeltaJoinLogic;
import io.flinkivm.core.plan.FallbackPlan;
import io.flinkivm.core.query.ResultCursor;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.state.FlinkDeltaJoinStore;
import io.flinkivm.flink.state.StateNames;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.Delta;
import io.flinkivm.flink.types.PayloadTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * The fallback plan on Flink: core's {@link DeltaJoinLogic} over keyed state, with the result
 * materialized and emitted as snapshots, or as its changes since the previous trigger (the result
 * remembers the payloads of the tuples it changes, {@link io.flinkivm.core.engine.join.TrackedResult}). Keyed by the value of a free variable that every atom has,
 * when there is one, or else by the cells of a HyperCube over the free variables: each atom tuple
 * reaches the cells that agree with its values, so each result tuple is computed, from all of its
 * parts, in exactly one partition. An atom tuple's deltas are applied in the order the ingest sent
 * them (one channel), which keeps a self-join's one-atom-after-another semantics.
 */
public final class DeltaJoinOperator<T> extends SnapshotSinkOperator<Delta<T>, T, Object> {
    private static final long serialVersionUID = 2L;

    private final FallbackPlan plan;
    private final Semiring<T> semiring;
    private final TypeInformation<T> payloadType;
    private final OutputTag<DeadLetter> deadLetters;

    private transient DeltaJoinLogic<T> logic;
    private transient FlinkDeltaJoinStore<T> store;
    private transient Counter failed;

    public DeltaJoinOperator(
            FallbackPlan plan,
            Semiring<T> semiring,
            TypeInformation<T> payloadType,
            TypeInformation<Delta<T>> deltaType,
            OutputTag<DeadLetter> deadLetters,
            boolean changelog,
            boolean updateBefore) {
        super(deltaType, changelog, updateBefore);
        this.plan = plan;
        this.semiring = semiring;
        this.payloadType = payloadType;
        this.deadLetters = deadLetters;
    }

    @Override
    public void open() throws Exception {
        logic = new DeltaJoinLogic<>(plan, semiring);
        store = new FlinkDeltaJoinStore<>(
                logic,
                PayloadTypes.inState(
                        payloadType.createSerializer(getExecutionConfig().getSerializerConfig())),
                getRuntimeContext(),
                changelog() ? semiring : null);
        failed = getMetricGroup().counter(Metrics.FAILED_UPDATES);
        super.open();
    }

    @Override
    protected long epochOf(Delta<T> d) {
        return d.epoch();
    }

    @Override
    protected void apply(Delta<T> d) {
        try {
            logic.insertAtom(store, d.atom(), d.key(), d.payload());
        } catch (ArithmeticException e) {
            failed.inc();
            output.collect(
                    deadLetters,
                    new StreamRecord<>(new DeadLetter(
                            Epochs.describeInsert(d.insert()), "update failed: " + e.getMessage(), d.toString())));
        }
    }

    /** The keys of this subtask with a result. */
    @Override
    protected List<Object> resultGroups() throws Exception {
        return keysOf(StateNames.RESULT);
    }

    /** The keys of this subtask whose result changed since the previous trigger. */
    @Override
    protected List<Object> changedGroups() throws Exception {
        return keysOf(StateNames.RESULT_BEFORE);
    }

    private List<Object> keysOf(String name) throws Exception {
        List<Object> keys = new ArrayList<>();
        try (Stream<Object> all = getKeyedStateBackend().getKeys(name, VoidNamespace.INSTANCE)) {
            all.forEach(keys::add);
        }
        return keys;
    }

    @Override
    protected void selectGroup(Object key) {
        setCurrentKey(key);
    }

    @Override
    protected void groupDone(Object key) {}

    @Override
    protected long emitChanges(long id, boolean deterministic) {
        long[] rows = {0};
        store.changes(c -> rows[0] += emitChange(id, deterministic, c));
        return rows[0];
    }

    @Override
    protected ResultCursor<T> results() {
        return ResultCursor.over(logic.results(store));
    }
}
