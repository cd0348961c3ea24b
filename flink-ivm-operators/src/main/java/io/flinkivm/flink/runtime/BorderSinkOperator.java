package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.BooleanJoin;
import io.flinkivm.core.engine.CompiledPlan;
import io.flinkivm.core.engine.ResultTuple;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.state.FlinkBooleanJoinStore;
import io.flinkivm.flink.state.MapStateAdapter;
import io.flinkivm.flink.state.StateNames;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.util.Iterator;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;

/**
 * The sink above the border: keeps the root-view payloads and the Boolean full join of the indicator
 * relations (core's {@link BooleanJoin}) in keyed state, and enumerates the result with payloads
 * recovered by lookups. Keyed by a free variable shared by every root schema when there is one
 * (then it may run in parallel), otherwise by the constant empty tuple.
 */
public final class BorderSinkOperator<T> extends SnapshotOperator<RootUpdate<T>, T> {
    private static final long serialVersionUID = 1L;

    private final MaintenancePlan plan;
    private final Semiring<T> semiring;
    private final TypeInformation<T> payloadType;
    private final boolean keyedBySharedVariable;

    private transient CompiledPlan compiled;
    private transient BooleanJoin join;
    private transient FlinkBooleanJoinStore store;
    private transient MapStateAdapter<Tuple, T>[] rootPayloads;
    private transient Counter joinInserts;

    public BorderSinkOperator(MaintenancePlan plan, Semiring<T> semiring, TypeInformation<T> payloadType,
            TypeInformation<RootUpdate<T>> inputType, boolean keyedBySharedVariable, boolean inOrderInput,
            long periodMillis, boolean changelog) {
        super(inputType, inOrderInput, periodMillis, changelog, payloadType);
        this.plan = plan;
        this.semiring = semiring;
        this.payloadType = payloadType;
        this.keyedBySharedVariable = keyedBySharedVariable;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void open() throws Exception {
        compiled = new CompiledPlan(plan);
        join = new BooleanJoin(compiled);
        store = new FlinkBooleanJoinStore(compiled, getRuntimeContext());
        rootPayloads = new MapStateAdapter[compiled.treeCount()];
        for (int i = 0; i < rootPayloads.length; i++) {
            String name = StateNames.rootPayloads(i);
            rootPayloads[i] = new MapStateAdapter<>(getRuntimeContext().getMapState(
                    new MapStateDescriptor<>(name, TupleTypeInfo.INSTANCE, payloadType)), name);
        }
        joinInserts = getMetricGroup().counter(Metrics.BORDER_CROSSINGS);
        super.open();
    }

    @Override
    protected void process(RootUpdate<T> u, long timestamp) {
        rootPayloads[u.tree()].put(u.tuple(), u.payload());
        if (u.isNew()) {
            joinInserts.inc();
            join.insert(store, u.tree(), u.tuple());
        }
    }

    @Override
    protected T zero() {
        return semiring.zero();
    }

    @Override
    protected String keyedStateName() {
        return keyedBySharedVariable ? StateNames.liveHead(compiled.order()[0]) : null;
    }

    @Override
    protected Iterator<ResultTuple<T>> results() {
        return join.results(store, semiring, (tree, rootTuple) -> rootPayloads[tree].get(rootTuple));
    }
}
