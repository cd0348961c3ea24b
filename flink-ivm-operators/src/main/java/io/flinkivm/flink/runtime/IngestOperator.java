package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.CompiledPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Route;
import io.flinkivm.core.query.Atom;
import io.flinkivm.core.query.AtomMatcher;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.InputRecord;
import io.flinkivm.flink.state.StateNames;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * The entry of a flink-ivm job (parallelism 1): numbers the inserts (the sequence number becomes the
 * records' event time), validates them, applies each atom's selection, and routes one delta per
 * matching atom to the side output of the operator that receives it. Rejected records go to the
 * main output as {@link DeadLetter}s.
 *
 * <p>Watermarks carry flink-ivm's progress and snapshot triggers ({@link EventTime}): upstream
 * watermarks are swallowed; the operator emits a progress watermark every {@code progressEvery}
 * inserts and a trigger when a snapshot is due (every N inserts, a control record, the end of the
 * input). A trigger reaches the sink only after every delta of the inserts before it, so the
 * snapshot at trigger n is exactly the result after n inserts.
 */
public final class IngestOperator<T> extends AbstractStreamOperator<DeadLetter>
        implements OneInputStreamOperator<InputRecord<T>, DeadLetter>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final MaintenancePlan plan;
    private final Semiring<T> semiring;
    private final long snapshotEvery;
    private final long progressEvery;
    private final Map<Integer, OutputTag<Delta<T>>> tags;

    private transient CompiledPlan compiled;
    private transient ConjunctiveQuery query;
    private transient Map<String, Integer> relationIndex;
    private transient AtomMatcher[] matchers;
    private transient ListState<Long> sequencerState;
    private transient long count;
    private transient long lastWatermark;
    private transient Counter insertsCounter;
    private transient Counter deadLetterCounter;
    private transient Map<String, Counter> perRelation;

    /**
     * @param tags the side output of each target: a stateful node id, {@link Delta#rootTarget(int)},
     *     or {@link Delta#FALLBACK_TARGET} for the fallback plan
     * @param snapshotEvery emit a snapshot trigger every this many inserts (0: never)
     * @param progressEvery emit a progress watermark every this many inserts (bounds what the sink holds back)
     */
    public IngestOperator(MaintenancePlan plan, Semiring<T> semiring, long snapshotEvery, long progressEvery,
            Map<Integer, OutputTag<Delta<T>>> tags) {
        if (progressEvery < 1) {
            throw new IllegalArgumentException("progressEvery must be >= 1, got " + progressEvery);
        }
        this.plan = plan;
        this.semiring = semiring;
        this.snapshotEvery = snapshotEvery;
        this.progressEvery = progressEvery;
        this.tags = new HashMap<>(tags);
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        sequencerState = context.getOperatorStateStore()
                .getListState(new ListStateDescriptor<>(StateNames.SEQUENCER, Types.LONG));
        count = 0;
        lastWatermark = -1;
        List<Long> restored = new java.util.ArrayList<>();
        for (Long v : sequencerState.get()) {
            restored.add(v);
        }
        if (restored.size() >= 2) {
            count = restored.get(0);
            lastWatermark = restored.get(1);
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        sequencerState.update(List.of(count, lastWatermark));
    }

    @Override
    public void open() throws Exception {
        super.open();
        query = plan.query();
        compiled = plan.kind() == PlanKind.FALLBACK_DELTA_JOIN ? null : new CompiledPlan(plan);
        matchers = new AtomMatcher[query.body().size()];
        for (Atom a : query.body()) {
            matchers[a.index()] = a.matcher();
        }
        relationIndex = new HashMap<>();
        perRelation = new HashMap<>();
        List<String> relations = query.relations();
        for (int i = 0; i < relations.size(); i++) {
            relationIndex.put(relations.get(i), i);
            perRelation.put(relations.get(i),
                    getMetricGroup().addGroup("relation", relations.get(i)).counter(Metrics.INSERTS));
        }
        insertsCounter = getMetricGroup().counter(Metrics.INSERTS);
        deadLetterCounter = getMetricGroup().counter(Metrics.DEAD_LETTERS);
    }

    @Override
    public void processElement(StreamRecord<InputRecord<T>> element) {
        InputRecord<T> r = element.getValue();
        if (r.isSnapshotRequest()) {
            emitTrigger();
            return;
        }
        String problem = validate(r);
        if (problem != null) {
            reject(r, problem);
            return;
        }
        count++;
        insertsCounter.inc();
        perRelation.get(r.relation()).inc();
        if (!semiring.isZero(r.payload())) {
            route(r);
        }
        if (snapshotEvery > 0 && count % snapshotEvery == 0) {
            emitTrigger();
        } else if (count % progressEvery == 0) {
            emitWatermark(EventTime.progress(count));
        }
    }

    private String validate(InputRecord<T> r) {
        if (r.relation() == null || r.tuple() == null) {
            return "insert without relation or tuple";
        }
        if (r.payload() == null) {
            return "insert without payload";
        }
        int arity = query.arityOf(r.relation());
        if (arity < 0) {
            return "unknown relation '" + r.relation() + "'; the query uses " + String.join(", ", query.relations());
        }
        if (arity != r.tuple().arity()) {
            return "relation " + r.relation() + " has arity " + arity + ", got " + r.tuple().arity() + " values";
        }
        if (!semiring.payloadClass().isInstance(r.payload())) {
            return "payload " + r.payload() + " is not a " + semiring.name() + " payload";
        }
        return null;
    }

    private void route(InputRecord<T> r) {
        if (compiled == null) {
            emit(Delta.FALLBACK_TARGET, relationIndex.get(r.relation()), r.tuple(), r.payload());
            return;
        }
        for (int a : compiled.atomsOf(r.relation(), r.tuple().arity())) {
            Tuple matched = matchers[a].match(r.tuple());
            if (matched != null) {
                Route route = plan.atomRoute(a);
                int target = route.toRoot() ? Delta.rootTarget(route.tree()) : route.node();
                emit(target, route.slot(), compiled.atomKey(a, matched), r.payload());
            }
        }
    }

    private void emit(int target, int slot, Tuple key, T payload) {
        output.collect(tags.get(target), new StreamRecord<>(new Delta<>(target, slot, key, payload),
                EventTime.ofInsert(count)));
    }

    private void reject(InputRecord<T> r, String reason) {
        deadLetterCounter.inc();
        output.collect(new StreamRecord<>(new DeadLetter(r.origin(), reason, String.valueOf(r)),
                EventTime.ofInsert(count)));
    }

    private void emitTrigger() {
        emitWatermark(EventTime.trigger(count));
    }

    private void emitWatermark(long time) {
        if (time > lastWatermark) {
            lastWatermark = time;
            output.emitWatermark(new Watermark(time));
        }
    }

    /** Upstream watermarks carry no meaning here; only the end of the input is passed on. */
    @Override
    public void processWatermark(Watermark mark) {
        if (mark.getTimestamp() == Long.MAX_VALUE) {
            emitTrigger();
            output.emitWatermark(mark);
        }
    }

    @Override
    public void endInput() {
        emitTrigger();
    }
}
