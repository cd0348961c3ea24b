package io.flinkivm.flink.sink;

import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.common.Metrics;
import io.flinkivm.flink.common.StateLayout;
import io.flinkivm.flink.common.StateTtl;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.PayloadTypes;
import io.flinkivm.flink.types.RootUpdate;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Base of the sinks above the border of a view-tree plan ({@code RootSinks}): the border sink and the
 * q-tree sink. Both apply the root views' deltas ({@link RootUpdate}) over the user's semiring, keep
 * their state in the layout chosen once in {@code initializeState} ({@link SinkState}, of type
 * {@code S}), count border crossings, and send an update whose payload overflows to the dead letters.
 */
@Internal
public abstract class RootSinkOperator<T, G, S extends SinkState<G>> extends SnapshotSinkOperator<RootUpdate<T>, T, G> {
    private static final long serialVersionUID = 1L;

    /** The operator's name in messages. */
    private final String name;

    private final RootSinkSpec<T> spec;

    /** The sink's state, in the layout chosen in {@code initializeState}. */
    protected transient S state;

    private transient Counter crossings;
    private transient Counter failed;

    /** @param name the operator's name in messages */
    protected RootSinkOperator(String name, RootSinkSpec<T> spec) {
        super(
                spec.inputType(),
                spec.changelog(),
                spec.updateBefore(),
                spec.stateTtl(),
                spec.windowClose(),
                spec.finalOnly());
        this.name = name;
        this.spec = spec;
    }

    /** The semiring of the payloads. */
    protected final Semiring<T> semiring() {
        return spec.semiring();
    }

    /** The raw keyed state holds the sink's state when it runs on the heap backend. */
    @Override
    protected final boolean isUsingCustomRawKeyedState() {
        return true;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        TypeSerializer<T> payloads = PayloadTypes.inState(
                spec.payloadType().createSerializer(getExecutionConfig().getSerializerConfig()));
        StateLayout layout =
                StateLayout.choose(name, spec.managedState() || dropsKeys(), getKeyedStateBackend(), context);
        state = createState(layout, payloads, context);
    }

    /**
     * Whether the managed layout keeps a key filter of the keys written: not when keys are dropped
     * (a state TTL, closing windows), where a filter that cannot forget a key would grow with every key
     * ever written ({@link StateTtl}).
     */
    protected final boolean keyFilters() {
        return !dropsKeys();
    }

    @Override
    protected final void forgetKey() {
        state.forgetCurrentKey();
    }

    /**
     * The sink's state in {@code layout}, restored from {@code context}. It registers its managed
     * keyed state on either layout, so that a savepoint's serializers are checked on the heap backend
     * too; on the in-memory layout it checks that those states are empty ({@link #checkNoManagedState}).
     *
     * @param payloads the payloads' serializer in state
     */
    protected abstract S createState(StateLayout layout, TypeSerializer<T> payloads, StateInitializationContext context)
            throws Exception;

    /** In-memory layout: refuses a checkpoint of the managed layout, whose states {@code names} hold entries. */
    protected final void checkNoManagedState(List<String> names) throws Exception {
        StateLayout.checkNoManagedState(name, getKeyedStateBackend(), names);
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
        super.open();
    }

    /** Counts root tuples that crossed the border. */
    protected final void crossed(long tuples) {
        crossings.inc(tuples);
    }

    /**
     * Counts an update that was not applied because its sum overflowed and sends it to the dead
     * letters, with the reason "{@code what} at (tuple) not added: (overflow)".
     */
    protected final void refuse(RootUpdate<T> u, String what, ArithmeticException e) {
        failed.inc();
        output.collect(
                spec.deadLetters(),
                new StreamRecord<>(new DeadLetter(
                        "epoch " + u.epoch(),
                        what + " at " + u.tuple() + " not added: " + e.getMessage(),
                        u.toString())));
    }

    @Override
    protected final void closedWindow(RootUpdate<T> u, String reason) {
        failed.inc();
        output.collect(
                spec.deadLetters(), new StreamRecord<>(new DeadLetter("epoch " + u.epoch(), reason, u.toString())));
    }

    @Override
    protected final long epochOf(RootUpdate<T> u) {
        return u.epoch();
    }

    @Override
    protected final List<G> resultGroups() throws Exception {
        return state.resultGroups();
    }

    @Override
    protected final List<G> changedGroups() throws Exception {
        return state.changedGroups();
    }
}
