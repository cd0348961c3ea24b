package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.CompiledPlan;
import io.flinkivm.core.engine.JoinViewLogic;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Route;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.state.StateNames;
import io.flinkivm.flink.state.ValueStateChildPayloads;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.OutputTag;

/**
 * One stateful join view V_X(path(X)) of a view tree, keyed by path(X): keeps each child's payload in
 * keyed state and sends the non-zero product of a delta with the other children to the view above,
 * keyed by path(X) without X. The update itself is core's {@link JoinViewLogic}.
 */
public final class ViewNodeOperator<T> extends TimeOrderedOperator<Delta<T>, Delta<T>> {
    private static final long serialVersionUID = 1L;

    private final MaintenancePlan plan;
    private final Semiring<T> semiring;
    private final int nodeId;
    private final TypeInformation<T> payloadType;
    private final OutputTag<DeadLetter> deadLetters;

    private transient CompiledPlan compiled;
    private transient JoinViewLogic<T> logic;
    private transient ValueStateChildPayloads<T> children;
    private transient int target;
    private transient int targetSlot;
    private transient String name;
    private transient Counter deltasIn;
    private transient Counter deltasOut;
    private transient Counter failed;

    public ViewNodeOperator(MaintenancePlan plan, Semiring<T> semiring, int nodeId, TypeInformation<T> payloadType,
            TypeInformation<Delta<T>> deltaType, OutputTag<DeadLetter> deadLetters, boolean inOrderInput) {
        super(deltaType, inOrderInput);
        this.plan = plan;
        this.semiring = semiring;
        this.nodeId = nodeId;
        this.payloadType = payloadType;
        this.deadLetters = deadLetters;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void open() throws Exception {
        super.open();
        compiled = new CompiledPlan(plan);
        ViewNode node = plan.viewNodes().get(nodeId);
        name = node.displayName();
        logic = new JoinViewLogic<>(semiring, node.arity());
        ValueState<T>[] slots = new ValueState[node.arity()];
        for (int s = 0; s < slots.length; s++) {
            slots[s] = getRuntimeContext().getState(new ValueStateDescriptor<>(StateNames.child(s), payloadType));
        }
        children = new ValueStateChildPayloads<>(slots, name);
        Route route = plan.nodeRoute(nodeId);
        target = route.toRoot() ? Delta.rootTarget(route.tree()) : route.node();
        targetSlot = route.slot();
        deltasIn = getMetricGroup().counter(Metrics.DELTAS_IN);
        deltasOut = getMetricGroup().counter(Metrics.DELTAS_OUT);
        failed = getMetricGroup().counter(Metrics.FAILED_UPDATES);
    }

    @Override
    protected void process(Delta<T> delta, long timestamp) {
        deltasIn.inc();
        T product;
        try {
            product = logic.onChildDelta(children, delta.slot(), delta.payload());
        } catch (ArithmeticException e) {
            failed.inc();
            emit(deadLetters, new DeadLetter("insert " + EventTime.inserts(timestamp),
                    "update of " + name + " failed: " + e.getMessage(), delta.toString()), timestamp);
            return;
        }
        if (!semiring.isZero(product)) {
            deltasOut.inc();
            emit(new Delta<>(target, targetSlot, compiled.nodeOutputKey(nodeId, delta.key()), product), timestamp);
        }
    }
}
