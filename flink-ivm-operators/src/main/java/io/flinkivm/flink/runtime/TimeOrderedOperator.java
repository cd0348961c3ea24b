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
 */
abstract class TimeOrderedOperator<IN, OUT> extends AbstractStreamOperator<OUT>
        implements OneInputStreamOperator<IN, OUT> {
    private static final long serialVersionUID = 1L;

    private final TypeInformation<IN> inputType;
    private final boolean inOrderInput;
    private transient ListState<Tuple2<Long, IN>> heldBack;
    private transient Set<Object> keysHoldingBack;
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
        keysHoldingBack = new HashSet<>();
        try (Stream<Object> keys = getKeyedStateBackend().getKeys(StateNames.HELD_BACK, VoidNamespace.INSTANCE)) {
            keys.forEach(keysHoldingBack::add);
        }
    }

    @Override
    public final void processElement(StreamRecord<IN> element) throws Exception {
        long t = element.getTimestamp();
        // Records restored from a run with several input channels (a rescale) are older than any
        // that arrive now: an in-order input is processed at once only when none are held back.
        if ((inOrderInput && keysHoldingBack.isEmpty()) || t <= currentWatermark) {
            process(element.getValue(), t);
        } else {
            heldBack.add(Tuple2.of(t, element.getValue()));
            keysHoldingBack.add(getCurrentKey());
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

    /** Processes every held-back record up to {@code watermark}, in timestamp order across keys. */
    private void release(long watermark) throws Exception {
        if (keysHoldingBack.isEmpty()) {
            return;
        }
        List<Object> readyKeys = new ArrayList<>();
        List<Tuple2<Long, IN>> ready = new ArrayList<>();
        List<Tuple2<Long, IN>> later = new ArrayList<>();
        for (Object key : new ArrayList<>(keysHoldingBack)) {
            setCurrentKey(key);
            later.clear();
            for (Tuple2<Long, IN> held : heldBack.get()) {
                if (held.f0 <= watermark) {
                    ready.add(held);
                    readyKeys.add(key);
                } else {
                    later.add(held);
                }
            }
            if (later.isEmpty()) {
                heldBack.clear();
                keysHoldingBack.remove(key);
            } else {
                heldBack.update(later);
            }
        }
        Integer[] order = new Integer[ready.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compare(ready.get(a).f0, ready.get(b).f0));
        for (int i : order) {
            setCurrentKey(readyKeys.get(i));
            process(ready.get(i).f1, ready.get(i).f0);
        }
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
