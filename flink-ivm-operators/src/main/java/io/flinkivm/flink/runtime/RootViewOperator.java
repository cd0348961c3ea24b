package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.RootViewLogic;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.state.StateNames;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.OutputTag;

/**
 * A view tree's root view V_i(F_i), keyed by F_i: adds deltas to the root payload and sends the new
 * payload across the border, marked new the one time a root tuple's payload turns non-zero.
 */
public final class RootViewOperator<T> extends TimeOrderedOperator<Delta<T>, RootUpdate<T>> {
    private static final long serialVersionUID = 1L;

    private final Semiring<T> semiring;
    private final int tree;
    private final String name;
    private final TypeInformation<T> payloadType;
    private final OutputTag<DeadLetter> deadLetters;

    private transient ValueState<T> payload;
    private transient Counter crossings;
    private transient Counter failed;

    public RootViewOperator(Semiring<T> semiring, int tree, String name, TypeInformation<T> payloadType,
            TypeInformation<Delta<T>> deltaType, OutputTag<DeadLetter> deadLetters, boolean inOrderInput) {
        super(deltaType, inOrderInput);
        this.semiring = semiring;
        this.tree = tree;
        this.name = name;
        this.payloadType = payloadType;
        this.deadLetters = deadLetters;
    }

    @Override
    public void open() throws Exception {
        super.open();
        payload = getRuntimeContext().getState(new ValueStateDescriptor<>(StateNames.ROOT_PAYLOAD, payloadType));
        crossings = getMetricGroup().counter(Metrics.BORDER_CROSSINGS);
        failed = getMetricGroup().counter(Metrics.FAILED_UPDATES);
    }

    @Override
    protected void process(Delta<T> delta, long timestamp) throws Exception {
        T old = payload.value();
        T updated;
        try {
            updated = RootViewLogic.add(semiring, old, delta.payload());
        } catch (ArithmeticException e) {
            failed.inc();
            emit(deadLetters, new DeadLetter("insert " + EventTime.inserts(timestamp),
                    "update of " + name + " failed: " + e.getMessage(), delta.toString()), timestamp);
            return;
        }
        payload.update(updated);
        boolean isNew = RootViewLogic.crossesBorder(semiring, old, updated);
        if (isNew) {
            crossings.inc();
        }
        emit(new RootUpdate<>(tree, delta.key(), updated, isNew), timestamp);
    }
}
