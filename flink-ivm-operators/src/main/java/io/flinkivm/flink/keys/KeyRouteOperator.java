package io.flinkivm.flink.keys;

import io.flinkivm.core.engine.keys.KeyStageLogic;
import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.query.AtomRouter;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.common.Metrics;
import io.flinkivm.flink.ingest.IngestOperator;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * The entry of a job whose plan relies on keys ({@link KeyedPlan}), at the ingest's parallelism:
 * validates each record against the query (bad ones become dead letters, with the ingest's reasons),
 * and sends a row to its relation's key stage, or, for a relation without one, on as
 * {@link KeyStageLogic#insert} says: to the ingest as it is, and to the first key stage of each of its
 * enriched atoms (side outputs, one per stage); a row that its table's filter dropped ({@link
 * InputRecord#isDropped()}) to its key stage as a mark, where rows look that stage up. Under deletes it
 * reads the row check's output, where
 * each delete was checked against its row, and routes a delete as {@link KeyStageLogic#retract} says.
 * Snapshot requests go straight to the ingest; an insert with payload zero is dropped (it changes
 * nothing). Stateless.
 */
@Internal
public final class KeyRouteOperator<T> extends AbstractStreamOperator<InputRecord<T>>
        implements OneInputStreamOperator<InputRecord<T>, InputRecord<T>> {
    private static final long serialVersionUID = 1L;

    private final KeyedPlan plan;
    private final Semiring<T> semiring;
    private final List<OutputTag<StageRow<T>>> stages;
    private final OutputTag<DeadLetter> deadLetters;

    private transient KeyStageLogic<T> logic;
    private transient AtomRouter router;
    private transient StageOutput<T> out;
    private transient Counter deadLetterCounter;

    /**
     * @param stages per key stage, the side output of the rows sent to it (null where none can go)
     * @param deadLetters the side output of rejected records
     */
    public KeyRouteOperator(
            KeyedPlan plan,
            Semiring<T> semiring,
            List<OutputTag<StageRow<T>>> stages,
            OutputTag<DeadLetter> deadLetters) {
        this.plan = plan;
        this.semiring = semiring;
        this.stages = new ArrayList<>(stages);
        this.deadLetters = deadLetters;
    }

    @Override
    public void open() throws Exception {
        super.open();
        logic = new KeyStageLogic<>(plan, semiring);
        router = new AtomRouter(plan.query());
        deadLetterCounter = getMetricGroup().counter(Metrics.DEAD_LETTERS);
        out = new StageOutput<>(
                output,
                stages,
                deadLetters,
                getMetricGroup().counter(Metrics.KEY_DROPS),
                getMetricGroup().counter(Metrics.FAILED_UPDATES));
    }

    @Override
    public void processElement(StreamRecord<InputRecord<T>> element) {
        InputRecord<T> r = element.getValue();
        if (r.isSnapshotRequest()) {
            output.collect(element);
            return;
        }
        // Under deletes the row check in front of the route checked each delete against its row.
        String problem =
                IngestOperator.problem(r, router, semiring, plan.inputs().isInsertOnly());
        if (problem != null) {
            deadLetterCounter.inc();
            output.collect(deadLetters, new StreamRecord<>(new DeadLetter(r.origin(), problem, String.valueOf(r))));
            return;
        }
        if (r.isDropped()) {
            // A row its table's filter dropped: a mark for its key stage, where rows look that stage up.
            if (r.isRetraction()) {
                logic.droppedRetraction(router.relation(r.relation()), r.tuple(), r.payload(), r.origin(), out);
            } else {
                logic.dropped(router.relation(r.relation()), r.tuple(), r.payload(), r.origin(), out);
            }
            return;
        }
        if (!semiring.isZero(r.payload())) {
            Tuple tuple = r.tuple();
            if (r.isRetraction()) {
                logic.retract(router.relation(r.relation()), tuple, r.payload(), r.origin(), out);
            } else {
                logic.insert(router.relation(r.relation()), tuple, r.payload(), r.origin(), out);
            }
        }
    }
}
