package io.flinkivm.flink.runtime;

import io.flinkivm.flink.state.StateNames;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * Base of flink-ivm's keyed operators: processes each key's records in timestamp (insert) order.
 * Records reach an operator on several channels, so a delta of a later insert can overtake one of
 * an earlier insert; a view that combined them in arrival order would stamp an earlier timestamp on
 * a product that already contains a later insert, and no snapshot would be prefix-exact. So each
 * record is held back in keyed state until the watermark passes its timestamp, then processed in
 * order ({@link EventTime}; progress watermarks keep the buffer to a few hundred inserts). Outputs
 * keep the timestamp of the record that caused them and leave in timestamp order, all of them
 * before the next watermark. An operator whose input has a single channel therefore receives its
 * records in order already and processes them at once ({@code inOrderInput}).
 *
 * <p>Held-back records wait in an in-memory buffer of (timestamp, key, record), not in keyed state:
 * they stay for less than one progress interval, and a state write, read and delete per record was the
 * largest cost of these operators on RocksDB. The buffer is written into keyed list state (per key)
 * when a checkpoint or savepoint is taken, so it is restored and rescaled like any keyed state; on
 * restore it is read back into memory. The copies in state are cleared at the next snapshot.
 */
abstract class TimeOrderedOperator<IN, OUT> extends AbstractStreamOperator<OUT>
        implements OneInputStreamOperator<IN, OUT> {
    private static final long serialVersionUID = 1L;

    private final TypeInformation<IN> inputType;
    private final boolean inOrderInput;
    /** Keyed copies of the buffer, written at snapshots only. */
    private transient ListState<Tuple2<Long, IN>> heldBack;
    /** Records waiting for the watermark, in arrival order. */
    private transient List<Held<IN>> buffer;
    /** Keys whose {@link #heldBack} state holds copies written by the last snapshot. */
    private transient Set<Object> keysInState;
    /** The last watermark received (Long.MIN_VALUE before the first). */
    protected transient long currentWatermark;

    /**
     * @param inOrderInput whether the input has a single channel from an operator that emits in
     *     timestamp order (then nothing needs to be held back)
     */
    TimeOrderedOperator(TypeInformation<IN> inputType, boolean inOrderInput) {
        this.inputType = inputType;
        this.inOrderInput = inOrderInput;
    }

    @Override
    public void open() throws Exception {
        super.open();
        currentWatermark = Long.MIN_VALUE;
        heldBack = getRuntimeContext().getListState(
                new ListStateDescriptor<>(StateNames.HELD_BACK, new TupleTypeInfo<>(Types.LONG, inputType)));
        buffer = new ArrayList<>();
        keysInState = new HashSet<>();
        List<Object> restored = new ArrayList<>();
        try (Stream<Object> keys = getKeyedStateBackend().getKeys(StateNames.HELD_BACK, VoidNamespace.INSTANCE)) {
            keys.forEach(restored::add);
        }
        for (Object key : restored) {
            setCurrentKey(key);
            for (Tuple2<Long, IN> held : heldBack.get()) {
                buffer.add(new Held<>(held.f0, key, held.f1));
            }
            heldBack.clear();
        }
    }

    /** Writes the buffer into keyed state (replacing the copies of the previous snapshot), so the snapshot holds it. */
    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        Object current = getCurrentKey();
        for (Object key : keysInState) {
            setCurrentKey(key);
            heldBack.clear();
        }
        keysInState.clear();
        java.util.Map<Object, List<Tuple2<Long, IN>>> perKey = new java.util.LinkedHashMap<>();
        for (Held<IN> h : buffer) {
            perKey.computeIfAbsent(h.key(), k -> new ArrayList<>()).add(Tuple2.of(h.timestamp(), h.value()));
        }
        for (java.util.Map.Entry<Object, List<Tuple2<Long, IN>>> e : perKey.entrySet()) {
            setCurrentKey(e.getKey());
            heldBack.update(e.getValue());
            keysInState.add(e.getKey());
        }
        if (current != null) {
            setCurrentKey(current);
        }
    }

    /** A record waiting for the watermark. */
    private record Held<IN>(long timestamp, Object key, IN value) {
    }

    @Override
    public final void processElement(StreamRecord<IN> element) throws Exception {
        long t = element.getTimestamp();
        // Records restored from a run with several input channels (a rescale) are older than any
        // that arrive now: an in-order input is processed at once only when none are held back.
        if ((inOrderInput && buffer.isEmpty()) || t <= currentWatermark) {
            process(element.getValue(), t);
        } else {
            buffer.add(new Held<>(t, getCurrentKey(), element.getValue()));
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        long t = mark.getTimestamp();
        currentWatermark = t;
        release(t);
        onWatermark(t);
        super.processWatermark(mark);
    }

    /**
     * Processes every held-back record up to {@code watermark}, in timestamp order across keys (ties:
     * arrival order), or in arrival order where {@link #ordersAcrossKeys()} says order does not matter.
     */
    private void release(long watermark) throws Exception {
        if (buffer.isEmpty()) {
            return;
        }
        List<Held<IN>> ready = new ArrayList<>(buffer.size());
        List<Held<IN>> later = new ArrayList<>();
        for (Held<IN> h : buffer) {
            (h.timestamp() <= watermark ? ready : later).add(h);
        }
        if (ready.isEmpty()) {
            return;
        }
        buffer = later;
        if (ordersAcrossKeys()) {
            ready.sort((a, b) -> Long.compare(a.timestamp(), b.timestamp()));
        }
        for (Held<IN> h : ready) {
            setCurrentKey(h.key());
            process(h.value(), h.timestamp());
        }
    }

    /**
     * Whether released records must be processed in timestamp order across keys (the default). An
     * operator whose state after a batch does not depend on the order of its records, and that
     * emits nothing while processing them, returns false: it then gets each batch in arrival order,
     * which keeps every input channel's (and so every key's) own order, without the sort.
     */
    protected boolean ordersAcrossKeys() {
        return true;
    }

    /** Processes one record under the current key, in timestamp order. */
    protected abstract void process(IN value, long timestamp) throws Exception;

    /** Called after the records up to {@code watermark} were processed, before it is forwarded. */
    protected void onWatermark(long watermark) throws Exception {
    }

    protected final void emit(OUT value, long timestamp) {
        output.collect(new StreamRecord<>(value, timestamp));
    }

    protected final <X> void emit(OutputTag<X> tag, X value, long timestamp) {
        output.collect(tag, new StreamRecord<>(value, timestamp));
    }
}
