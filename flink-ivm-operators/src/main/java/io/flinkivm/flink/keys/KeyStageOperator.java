package io.flinkivm.flink.keys;

import io.flinkivm.core.engine.keys.KeyRow;
import io.flinkivm.core.engine.keys.KeyStageLogic;
import io.flinkivm.core.engine.keys.KeyStageStore;
import io.flinkivm.core.engine.keys.KeyViolation;
import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.common.Metrics;
import io.flinkivm.flink.common.StateTtl;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.PayloadTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * One key stage of a {@link KeyedPlan}, keyed by the key value: core's {@link KeyStageLogic} over
 * keyed state ({@link FlinkKeyStageStore}: the row stored under the key value with its payload, or the
 * mark of a dropped row, and the rows waiting for it). A row of the stage's relation is stored and
 * passed on, and releases the rows that waited for it; an identical one is passed on, unless the
 * relation is absorbed; one with other values (or any second one of an absorbed relation) is a dead
 * letter naming the key and both rows, once per row of a table whose relations have several stages
 * (the others reject it silently, {@link KeyStageLogic#reports}). A row of an enriched atom gets its
 * key row's values (and, where it absorbs it, its payload) and goes on to its next stage (a side
 * output) or to the ingest (the main output), or waits; it is dropped if its key row is a mark. A copy of a stage gets its rows from the
 * stage before it. Heap and RocksDB alike; snapshots, restores and rescaling are Flink's, of keyed
 * state.
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
    private final Semiring<T> semiring;
    private final int stage;
    private final TypeInformation<T> payloadType;
    private final List<OutputTag<StageRow<T>>> stages;
    private final OutputTag<DeadLetter> deadLetters;

    private final StateTtl stateTtl;

    private transient KeyStageLogic<T> logic;
    private transient KeyStageStore<T> store;
    private transient FlinkKeyStageStore<T> flinkStore;
    private transient StageOutput<T> out;
    private transient Counter deadLetterCounter;
    private transient Counter violations;
    private transient Counter waits;
    private transient Counter releases;

    /**
     * @param stage the index of this stage in {@code plan.stages()}
     * @param stages per key stage, the side output of the rows sent to it (null where none can go)
     * @param deadLetters the side output of rows that break the key
     * @param stateTtl expire key rows, waiting rows and references not written for this long
     *     ({@link StateTtl#NONE}: never)
     */
    public KeyStageOperator(
            KeyedPlan plan,
            Semiring<T> semiring,
            int stage,
            TypeInformation<T> payloadType,
            List<OutputTag<StageRow<T>>> stages,
            OutputTag<DeadLetter> deadLetters,
            StateTtl stateTtl) {
        this.plan = plan;
        this.semiring = semiring;
        this.stage = stage;
        this.payloadType = payloadType;
        this.stages = new ArrayList<>(stages);
        this.deadLetters = deadLetters;
        this.stateTtl = stateTtl;
    }

    @Override
    public void open() throws Exception {
        super.open();
        flinkStore = new FlinkKeyStageStore<>(
                stateTtl.states(getKeyedStateStore()),
                PayloadTypes.inState(
                        payloadType.createSerializer(getExecutionConfig().getSerializerConfig())),
                !plan.inputs().isInsertOnly());
        logic = new KeyStageLogic<>(plan, semiring);
        deadLetterCounter = getMetricGroup().counter(Metrics.DEAD_LETTERS);
        out = new StageOutput<>(
                output,
                stages,
                deadLetters,
                getMetricGroup().counter(Metrics.KEY_DROPS),
                new CountingBoth(getMetricGroup().counter(Metrics.FAILED_UPDATES), deadLetterCounter));
        violations = getMetricGroup().counter(Metrics.KEY_VIOLATIONS);
        waits = getMetricGroup().counter(Metrics.KEY_WAITS);
        releases = getMetricGroup().counter(Metrics.KEY_RELEASES);
        store = new Counted();
    }

    /** The keyed state, counting the rows that wait and are released. */
    private final class Counted implements KeyStageStore<T> {
        @Override
        public KeyRow<T> keyRow(Tuple key) {
            return flinkStore.keyRow(key);
        }

        @Override
        public void putKeyRow(Tuple key, KeyRow<T> row) {
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

        @Override
        public void removeKeyRow(Tuple key) {
            flinkStore.removeKeyRow(key);
        }

        @Override
        public T reference(Tuple key, Tuple reference) {
            return flinkStore.reference(key, reference);
        }

        @Override
        public void putReference(Tuple key, Tuple reference, T payload) {
            flinkStore.putReference(key, reference, payload);
        }

        @Override
        public List<Map.Entry<Tuple, T>> references(Tuple key) {
            return flinkStore.references(key);
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
        if (v != null && logic.reports(stage, v)) {
            violations.inc();
            deadLetterCounter.inc();
            output.collect(
                    deadLetters,
                    new StreamRecord<>(new DeadLetter(
                            row.origin(),
                            v.message(),
                            String.valueOf(InputRecord.change(
                                    row.retraction() ? ChangeKind.DELETE : ChangeKind.INSERT,
                                    v.relation(),
                                    row.values(),
                                    row.payload(),
                                    row.origin())))));
        }
    }

    /** Counts into two counters at once (a failed update is also a dead letter). */
    private static final class CountingBoth extends SimpleCounter {
        private final Counter first;
        private final Counter second;

        CountingBoth(Counter first, Counter second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void inc() {
            first.inc();
            second.inc();
        }

        @Override
        public void inc(long n) {
            first.inc(n);
            second.inc(n);
        }
    }
}
