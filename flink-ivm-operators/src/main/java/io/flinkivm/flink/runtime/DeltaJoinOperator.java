package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.DeltaJoinLogic;
import io.flinkivm.core.engine.ResultTuple;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.state.FlinkDeltaJoinStore;
import java.util.Iterator;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.OutputTag;

/**
 * The fallback plan on Flink: core's {@link DeltaJoinLogic} over keyed state under one constant key
 * (parallelism 1), with the result materialized and emitted as snapshots. Its only input is the
 * ingest operator's single channel, so records arrive in insert order and are never held back.
 */
public final class DeltaJoinOperator<T> extends SnapshotOperator<Delta<T>, T> {
    private static final long serialVersionUID = 1L;

    private final MaintenancePlan plan;
    private final Semiring<T> semiring;
    private final TypeInformation<T> payloadType;
    private final OutputTag<DeadLetter> deadLetters;

    private transient DeltaJoinLogic<T> logic;
    private transient FlinkDeltaJoinStore<T> store;
    private transient List<String> relations;
    private transient Counter failed;

    public DeltaJoinOperator(MaintenancePlan plan, Semiring<T> semiring, TypeInformation<T> payloadType,
            TypeInformation<Delta<T>> deltaType, OutputTag<DeadLetter> deadLetters, long periodMillis,
            boolean changelog) {
        super(deltaType, true, periodMillis, changelog, payloadType);
        this.plan = plan;
        this.semiring = semiring;
        this.payloadType = payloadType;
        this.deadLetters = deadLetters;
    }

    @Override
    public void open() throws Exception {
        logic = new DeltaJoinLogic<>(plan, semiring);
        store = new FlinkDeltaJoinStore<>(logic, payloadType, getRuntimeContext());
        relations = plan.query().relations();
        failed = getMetricGroup().counter(Metrics.FAILED_UPDATES);
        super.open();
    }

    @Override
    protected void process(Delta<T> d, long timestamp) {
        try {
            logic.insert(store, relations.get(d.slot()), d.key(), d.payload());
        } catch (ArithmeticException e) {
            failed.inc();
            emit(deadLetters, new DeadLetter("insert " + EventTime.inserts(timestamp), "update failed: " + e.getMessage(),
                    d.toString()), timestamp);
        }
    }

    @Override
    protected T zero() {
        return semiring.zero();
    }

    @Override
    protected String keyedStateName() {
        return null;
    }

    @Override
    protected Iterator<ResultTuple<T>> results() {
        return logic.results(store);
    }
}
