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
 * keep the timestamp of the record that caused them, and all of them precede the next watermark.
 */
abstract class TimeOrderedOperator<IN, OUT> extends AbstractStreamOperator<OUT>
        implements OneInputStreamOperator<IN, OUT> {
    private static final long serialVersionUID = 1L;

    private final TypeInformation<IN> inputType;
    private transient ListState<Tuple2<Long, IN>> heldBack;
    private transient Set<Object> keysHoldingBack;
    /** The last watermark received (Long.MIN_VALUE before the first). */
    protected transient long currentWatermark;

    TimeOrderedOperator(TypeInformation<IN> inputType) {
        this.inputType = inputType;
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
        if (t <= currentWatermark) {
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

    /** Processes, key by key and in timestamp order, every held-back record up to {@code watermark}. */
    private void release(long watermark) throws Exception {
        if (keysHoldingBack.isEmpty()) {
            return;
        }
        List<Tuple2<Long, IN>> ready = new ArrayList<>();
        List<Tuple2<Long, IN>> later = new ArrayList<>();
        for (Object key : new ArrayList<>(keysHoldingBack)) {
            setCurrentKey(key);
            ready.clear();
            later.clear();
            for (Tuple2<Long, IN> held : heldBack.get()) {
                (held.f0 <= watermark ? ready : later).add(held);
            }
            ready.sort((a, b) -> Long.compare(a.f0, b.f0));
            for (Tuple2<Long, IN> r : ready) {
                process(r.f1, r.f0);
            }
            if (later.isEmpty()) {
                heldBack.clear();
                keysHoldingBack.remove(key);
            } else {
                heldBack.update(later);
            }
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
