package io.flinkivm.flink.runtime;

import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.OutputMode;
import io.flinkivm.flink.ResultRecord;
import io.flinkivm.flink.state.MapStateAdapter;
import io.flinkivm.flink.state.StateNames;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Base of the keyed operators that hold a query result and emit its snapshots: the border sink and
 * the fallback. Input 1 is keyed (root updates or deltas), input 2 the ingest subtasks' epoch ends,
 * broadcast ({@link EpochEnd}). A record of the lowest open epoch is applied at once, later ones wait
 * ({@link HeldBack}). When the watermark passes epochs that ingest subtasks ended, the operator takes,
 * epoch by epoch, the snapshot of that cut ({@link EpochCuts}) if an ingest subtask asked for one at
 * that epoch: it applies the records up to the epoch, then emits every result tuple of its keys and
 * an end marker with the cut. A snapshot's id is the number of inserts it reflects; a cut that adds
 * no insert to the previous snapshot is not emitted again. All sink subtasks see the same epoch ends, so they emit the same snapshots.
 */
abstract class SnapshotSinkOperator<IN, T> extends AbstractStreamOperator<ResultRecord<T>>
        implements TwoInputStreamOperator<IN, EpochEnd, ResultRecord<T>> {
    private static final long serialVersionUID = 1L;

    private final TypeInformation<IN> inputType;
    private final boolean changelog;
    private final TypeInformation<T> payloadType;
    private transient HeldBack<IN> heldBack;
    private transient MapStateAdapter<Tuple, T> emitted;
    private transient EpochCuts cuts;
    private transient ListState<String> cutState;
    private transient long watermark;
    private transient Counter snapshots;
    private transient volatile long lastRows;
    private transient volatile long lastMillis;

    /**
     * @param changelog emit only the rows that changed since the previous snapshot ({@code OutputMode.CHANGELOG})
     */
    SnapshotSinkOperator(TypeInformation<IN> inputType, boolean changelog, TypeInformation<T> payloadType) {
        this.inputType = inputType;
        this.changelog = changelog;
        this.payloadType = payloadType;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        cutState = context.getOperatorStateStore()
                .getUnionListState(new ListStateDescriptor<>(StateNames.EPOCH_CUTS, Types.STRING));
        cuts = new EpochCuts();
        for (String s : cutState.get()) {
            // Every subtask saw the same epoch ends: any copy will do.
            cuts = EpochCuts.decode(s);
            break;
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        heldBack.snapshot();
        cutState.update(List.of(cuts.encode()));
    }

    @Override
    public void open() throws Exception {
        super.open();
        heldBack = new HeldBack<>(this, inputType, this::epochOf);
        if (changelog) {
            emitted = new MapStateAdapter<>(getRuntimeContext().getMapState(
                    new MapStateDescriptor<>(StateNames.EMITTED, TupleTypeInfo.INSTANCE, payloadType)), StateNames.EMITTED);
        }
        watermark = Long.MIN_VALUE;
        snapshots = getMetricGroup().counter(Metrics.SNAPSHOTS);
        getMetricGroup().gauge(Metrics.LAST_SNAPSHOT_ROWS, () -> lastRows);
        getMetricGroup().gauge(Metrics.LAST_ENUMERATION_MS, () -> lastMillis);
        getMetricGroup().gauge(Metrics.HELD_BACK, () -> heldBack.size());
    }

    @Override
    public final void processElement1(StreamRecord<IN> element) throws Exception {
        IN value = element.getValue();
        if (epochOf(value) <= Epochs.lowestOpen(watermark)) {
            apply(value);
        } else {
            heldBack.add(getCurrentKey(), value);
        }
    }

    @Override
    public final void processElement2(StreamRecord<EpochEnd> element) {
        cuts.add(element.getValue());
    }

    /** Called with the combined watermark of both inputs. */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        watermark = mark.getTimestamp();
        for (long e = cuts.next(watermark); e >= 0; e = cuts.next(watermark)) {
            heldBack.release(e, this::apply);
            EpochCuts.Cut cut = cuts.take(e);
            if (cut.snapshot() && cut.total() > cuts.lastTotal()) {
                cuts.emitted(cut.total());
                emitSnapshot(cut);
            }
        }
        heldBack.release(Epochs.lowestOpen(watermark), this::apply);
        super.processWatermark(mark);
    }

    private void emitSnapshot(EpochCuts.Cut cut) throws Exception {
        long start = System.nanoTime();
        long id = cut.total();
        long rows = 0;
        for (Object group : resultGroups()) {
            selectGroup(group);
            rows += changelog ? emitChanges(id, cut.deterministic()) : emitAll(id, cut.deterministic());
        }
        output.collect(new StreamRecord<>(ResultRecord.end(id, id, rows, cut.deterministic(), cut.perSubtask())));
        snapshots.inc();
        lastRows = rows;
        lastMillis = (System.nanoTime() - start) / 1_000_000;
    }

    private long emitAll(long id, boolean deterministic) {
        long rows = 0;
        for (Iterator<ResultTuple<T>> it = results(); it.hasNext(); ) {
            ResultTuple<T> r = it.next();
            output.collect(new StreamRecord<>(ResultRecord.row(id, id, r.tuple(), r.payload(), deterministic)));
            rows++;
        }
        return rows;
    }

    /** Emits the rows of the current group whose payload differs from the last emitted one (zero: gone). */
    private long emitChanges(long id, boolean deterministic) throws Exception {
        KeyValueState<Tuple, T> emitted = emittedRows();
        long rows = 0;
        Set<Tuple> seen = new HashSet<>();
        for (Iterator<ResultTuple<T>> it = results(); it.hasNext(); ) {
            ResultTuple<T> r = it.next();
            seen.add(r.tuple());
            if (!r.payload().equals(emitted.get(r.tuple()))) {
                emitted.put(r.tuple(), r.payload());
                output.collect(new StreamRecord<>(ResultRecord.row(id, id, r.tuple(), r.payload(), deterministic)));
                rows++;
            }
        }
        List<Tuple> gone = new ArrayList<>();
        for (Iterator<Map.Entry<Tuple, T>> it = emittedEntries(); it.hasNext(); ) {
            Map.Entry<Tuple, T> e = it.next();
            if (!seen.contains(e.getKey())) {
                gone.add(e.getKey());
            }
        }
        for (Tuple t : gone) {
            emitted.remove(t);
            output.collect(new StreamRecord<>(ResultRecord.row(id, id, t, zero(), deterministic)));
            rows++;
        }
        return rows;
    }

    /** The semiring's zero (a deletion in changelog mode). */
    protected abstract T zero();

    /** The epoch of an input record. */
    protected abstract long epochOf(IN value);

    /** Applies one input record under its key, in epoch order. */
    protected abstract void apply(IN value) throws Exception;

    /** The name of a keyed state that every key with results has (for the default {@link #resultGroups()}). */
    protected abstract String keyedStateName();

    /**
     * The groups of this subtask that may hold results, each selected with {@link #selectGroup} before
     * {@link #results()}: by default the keys of {@link #keyedStateName()}.
     */
    protected List<Object> resultGroups() throws Exception {
        List<Object> keys = new ArrayList<>();
        try (Stream<Object> all = getKeyedStateBackend().getKeys(keyedStateName(), VoidNamespace.INSTANCE)) {
            all.forEach(keys::add);
        }
        return keys;
    }

    /** Selects a group of {@link #resultGroups()}: by default sets the current key. */
    protected void selectGroup(Object group) {
        setCurrentKey(group);
    }

    /** In changelog mode, the rows last emitted for the selected group. */
    protected KeyValueState<Tuple, T> emittedRows() {
        return emitted;
    }

    /** The entries of {@link #emittedRows()}. */
    protected Iterator<Map.Entry<Tuple, T>> emittedEntries() {
        return emitted.entries();
    }

    /** The results held in the selected group. */
    protected abstract Iterator<ResultTuple<T>> results();
}
