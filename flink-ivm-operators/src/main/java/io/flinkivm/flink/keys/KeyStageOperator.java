package io.flinkivm.flink.keys;

import io.flinkivm.core.engine.keys.KeyStageLogic;
import io.flinkivm.core.engine.keys.KeyStageStore;
import io.flinkivm.core.engine.keys.KeyViolation;
import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.common.Metrics;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.PayloadTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * One key stage of a {@link KeyedPlan}, keyed by the key value: core's {@link KeyStageLogic} over
 * keyed state ({@link FlinkKeyStageStore}: the row stored under the key value, and the rows waiting
 * for it). A row of the stage's relation is stored and passed on, and releases the rows that waited
 * for it; an identical one is passed on; one with other values is a dead letter naming the key and
 * both rows. A row of an enriched atom gets its key row's values and goes on to its next stage (a
 * side output) or to the ingest (the main output), or waits. Heap and RocksDB alike; snapshots,
 * restores and rescaling are Flink's, of keyed state.
 *
 * <p>The stages stand in front of the ingest, which stamps each row with its epoch when the row
 * reaches it: a row that waited enters a later epoch, and a snapshot is the result over the rows
 * that reached the ingest by then. That result is exact for those rows: a released row was extended
 * by the values of its key row, which was stored before it and passed on before it was released, and
 * in the closed query it joins only that key row (the key holds, so no other row has its key value);
 * until the key row reaches the ingest too, the released row joins nothing there, as it would join
 * nothing in the query over the same rows. A waiting row is simply an insert that has not arrived
 * yet.
 */
@Internal
public final class KeyStageOperator<T> extends AbstractStreamOperator<InputRecord<T>>
        implements OneInputStreamOperator<StageRow<T>, InputRecord<T>> {
    private static final long serialVersionUID = 1L;

    private final KeyedPlan plan;
    private final int stage;
    private final TypeInformation<T> payloadType;
    private final List<OutputTag<StageRow<T>>> stages;
    private final OutputTag<DeadLetter> deadLetters;

    private transient KeyStageLogic<T> logic;
    private transient KeyStageStore<T> store;
    private transient FlinkKeyStageStore<T> flinkStore;
    private transient StageOutput<T> out;
    private transient Counter deadLetterCounter;
    private transient Counter violations;
    private transient Counter waits;
    private transient Counter releases;

    /**
     * @param stage the index of this stage in {@code plan.keys()}
     * @param stages per key stage, the side output of the rows sent to it (null where none can go)
     * @param deadLetters the side output of rows that break the key
     */
    public KeyStageOperator(
            KeyedPlan plan,
            int stage,
            TypeInformation<T> payloadType,
            List<OutputTag<StageRow<T>>> stages,
            OutputTag<DeadLetter> deadLetters) {
        this.plan = plan;
        this.stage = stage;
        this.payloadType = payloadType;
        this.stages = new ArrayList<>(stages);
        this.deadLetters = deadLetters;
    }

    @Override
    public void open() throws Exception {
        super.open();
        flinkStore = new FlinkKeyStageStore<>(
                getRuntimeContext(),
                PayloadTypes.inState(
                        payloadType.createSerializer(getExecutionConfig().getSerializerConfig())));
        logic = new KeyStageLogic<>(plan);
        out = new StageOutput<>(output, stages);
        deadLetterCounter = getMetricGroup().counter(Metrics.DEAD_LETTERS);
        violations = getMetricGroup().counter(Metrics.KEY_VIOLATIONS);
        waits = getMetricGroup().counter(Metrics.KEY_WAITS);
        releases = getMetricGroup().counter(Metrics.KEY_RELEASES);
        store = new Counted();
    }

    /** The keyed state, counting the rows that wait and are released. */
    private final class Counted implements KeyStageStore<T> {
        @Override
        public Tuple keyRow(Tuple key) {
            return flinkStore.keyRow(key);
        }

        @Override
        public void putKeyRow(Tuple key, Tuple row) {
            flinkStore.putKeyRow(key, row);
        }

        @Override
        public void addWaiting(Tuple key, StageRow<T> row) {
            waits.inc();
            flinkStore.addWaiting(key, row);
        }

        @Override
        public List<StageRow<T>> takeWaiting(Tuple key) {
            List<StageRow<T>> rows = flinkStore.takeWaiting(key);
            releases.inc(rows.size());
            return rows;
        }
    }

    @Override
    public void processElement(StreamRecord<StageRow<T>> element) {
        StageRow<T> row = element.getValue();
        if (!row.isKeyRow()) {
            logic.probe(stage, store, row, out);
            return;
        }
        KeyViolation v = logic.keyRow(stage, store, row, out);
        if (v != null) {
            violations.inc();
            deadLetterCounter.inc();
            output.collect(
                    deadLetters,
                    new StreamRecord<>(new DeadLetter(
                            row.origin(),
                            v.message(),
                            String.valueOf(
                                    InputRecord.insert(v.relation(), row.values(), row.payload(), row.origin())))));
        }
    }
}
