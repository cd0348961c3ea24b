package io.flinkivm.flink.runtime;

import io.flinkivm.flink.state.StateNames;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;

/**
 * The records a keyed operator received ahead of their epoch ({@link Epochs}): kept in memory with
 * their keys, by epoch, until the watermark lets them through, then handed back in epoch order
 * (arrival order within an epoch, which keeps each input channel's order). They stay only while some
 * ingest subtask is behind, so they are not written to state per record; a checkpoint writes them into
 * keyed list state ({@link StateNames#HELD_BACK}), so they are restored and rescaled like any keyed
 * state, and {@link #restore} reads them back (the copies are cleared at the next checkpoint).
 */
final class HeldBack<IN> {
    /** Processes one released record under its key (already set). */
    interface Processor<IN> {
        void process(IN value) throws Exception;
    }

    private final AbstractStreamOperator<?> operator;
    private final ToLongFunction<IN> epochOf;
    private final ListState<IN> state;
    private final TreeMap<Long, List<Object>> byEpoch = new TreeMap<>();
    private final List<Object> keysInState = new ArrayList<>();
    private long size;

    /** Made in {@code open()} of a keyed operator; reads back what a restore brought. */
    HeldBack(AbstractStreamOperator<?> operator, TypeInformation<IN> type, ToLongFunction<IN> epochOf)
            throws Exception {
        this.operator = operator;
        this.epochOf = epochOf;
        this.state = operator.getKeyedStateStore().getListState(new ListStateDescriptor<>(StateNames.HELD_BACK, type));
        List<Object> keys = new ArrayList<>();
        try (Stream<Object> restored =
                operator.getKeyedStateBackend().getKeys(StateNames.HELD_BACK, VoidNamespace.INSTANCE)) {
            restored.forEach(keys::add);
        }
        for (Object key : keys) {
            operator.setCurrentKey(key);
            for (IN value : state.get()) {
                add(key, value);
            }
            state.clear();
        }
    }

    /** Holds {@code value}, received under {@code key}. */
    void add(Object key, IN value) {
        List<Object> list = byEpoch.computeIfAbsent(epochOf.applyAsLong(value), e -> new ArrayList<>());
        list.add(key);
        list.add(value);
        size++;
    }

    /** Records held. */
    long size() {
        return size;
    }

    /** The lowest epoch held, or {@code Long.MAX_VALUE} if none. */
    long lowestEpoch() {
        return byEpoch.isEmpty() ? Long.MAX_VALUE : byEpoch.firstKey();
    }

    /** Hands every record of epochs up to {@code epoch} to {@code processor}, in epoch order, under its key. */
    @SuppressWarnings("unchecked")
    void release(long epoch, Processor<IN> processor) throws Exception {
        while (!byEpoch.isEmpty() && byEpoch.firstKey() <= epoch) {
            List<Object> list = byEpoch.pollFirstEntry().getValue();
            size -= list.size() / 2;
            for (int i = 0; i < list.size(); i += 2) {
                operator.setCurrentKey(list.get(i));
                processor.process((IN) list.get(i + 1));
            }
        }
    }

    /** Writes the held records into keyed state, replacing what the previous checkpoint wrote. */
    @SuppressWarnings("unchecked")
    void snapshot() throws Exception {
        Object current = operator.getCurrentKey();
        for (Object key : keysInState) {
            operator.setCurrentKey(key);
            state.clear();
        }
        keysInState.clear();
        Map<Object, List<IN>> perKey = new LinkedHashMap<>();
        for (List<Object> list : byEpoch.values()) {
            for (int i = 0; i < list.size(); i += 2) {
                perKey.computeIfAbsent(list.get(i), k -> new ArrayList<>()).add((IN) list.get(i + 1));
            }
        }
        for (Iterator<Map.Entry<Object, List<IN>>> it = perKey.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Object, List<IN>> e = it.next();
            operator.setCurrentKey(e.getKey());
            state.update(e.getValue());
            keysInState.add(e.getKey());
        }
        if (current != null) {
            operator.setCurrentKey(current);
        }
    }
}
