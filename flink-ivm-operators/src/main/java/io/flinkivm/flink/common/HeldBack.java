package io.flinkivm.flink.common;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.runtime.TupleSerializer;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;

/**
 * The records a keyed operator received ahead of their epoch ({@link Epochs}): kept in memory with
 * their keys, by epoch, until the watermark lets them through ({@link Epochs#applicable}: the whole
 * lowest open major), then handed back in epoch order
 * (arrival order within an epoch, which keeps each input channel's order). They stay only while some
 * ingest subtask is behind, so they are not written to state per record. A checkpoint writes them, with
 * their keys, into union operator state ({@link StateNames#HELD_BACK}): into the checkpoint's
 * operator state file and not into the keyed state backend, where each checkpoint's copy would be
 * written to RocksDB and deleted again at the next. On restore every subtask reads them all and keeps
 * those of its key groups, so they follow their keys when the job is rescaled.
 */
@Internal
public final class HeldBack<IN> {
    /** Processes one released record under its key (already set). */
    public interface Processor<IN> {
        void process(IN value) throws Exception;
    }

    private final AbstractStreamOperator<?> operator;
    private final ToLongFunction<IN> epochOf;
    private final ListState<Tuple2<Object, IN>> state;
    private final TreeMap<Long, List<Tuple2<Object, IN>>> byEpoch = new TreeMap<>();
    private long size;
    /** The highest epoch the last watermark lets through. */
    private long applicable = Epochs.applicable(Long.MIN_VALUE);

    /** Made in {@code open()} of a keyed operator; reads back what a restore brought. */
    @SuppressWarnings({"unchecked", "rawtypes"}) // Tuple2 of the operator's key and record serializers
    public HeldBack(AbstractStreamOperator<?> operator, TypeInformation<IN> type, ToLongFunction<IN> epochOf)
            throws Exception {
        this.operator = operator;
        this.epochOf = epochOf;
        TypeSerializer<?>[] fields = {
            operator.getKeyedStateBackend().getKeySerializer(),
            type.createSerializer(operator.getExecutionConfig().getSerializerConfig())
        };
        TupleSerializer<Tuple2<Object, IN>> pairs = new TupleSerializer<>((Class) Tuple2.class, fields);
        this.state = operator.getOperatorStateBackend()
                .getUnionListState(new ListStateDescriptor<>(StateNames.HELD_BACK, pairs));
        TaskInfo task = operator.getRuntimeContext().getTaskInfo();
        int groups = task.getMaxNumberOfParallelSubtasks();
        KeyGroupRange mine = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
                groups, task.getNumberOfParallelSubtasks(), task.getIndexOfThisSubtask());
        for (Tuple2<Object, IN> held : state.get()) {
            if (mine.contains(KeyGroupRangeAssignment.assignToKeyGroup(held.f0, groups))) {
                add(held.f0, held.f1);
            }
        }
        state.clear();
    }

    /**
     * Holds {@code value}, received under the operator's current key, if the last watermark does not let
     * its epoch through yet; false if the operator may apply it now.
     */
    public boolean holds(IN value) {
        if (epochOf.applyAsLong(value) <= applicable) {
            return false;
        }
        add(operator.getCurrentKey(), value);
        return true;
    }

    /** Watermark {@code watermark} arrived: hands over every record it lets through (in epoch order). */
    public void advance(long watermark, Processor<IN> processor) throws Exception {
        applicable = Epochs.applicable(watermark);
        release(applicable, processor);
    }

    /** Holds {@code value}, received under {@code key}. */
    private void add(Object key, IN value) {
        byEpoch.computeIfAbsent(epochOf.applyAsLong(value), e -> new ArrayList<>())
                .add(Tuple2.of(key, value));
        size++;
    }

    /** Records held. */
    public long size() {
        return size;
    }

    /** The lowest epoch held, or {@code Long.MAX_VALUE} if none. */
    public long lowestEpoch() {
        return byEpoch.isEmpty() ? Long.MAX_VALUE : byEpoch.firstKey();
    }

    /** Hands every record of epochs up to {@code epoch} to {@code processor}, in epoch order, under its key. */
    public void release(long epoch, Processor<IN> processor) throws Exception {
        while (!byEpoch.isEmpty() && byEpoch.firstKey() <= epoch) {
            List<Tuple2<Object, IN>> list = byEpoch.pollFirstEntry().getValue();
            size -= list.size();
            for (Tuple2<Object, IN> held : list) {
                operator.setCurrentKey(held.f0);
                processor.process(held.f1);
            }
        }
    }

    /** Writes the held records, in epoch and arrival order, into the checkpoint's operator state. */
    public void snapshot() throws Exception {
        List<Tuple2<Object, IN>> all = new ArrayList<>((int) Math.min(size, Integer.MAX_VALUE));
        for (List<Tuple2<Object, IN>> list : byEpoch.values()) {
            all.addAll(list);
        }
        state.update(all);
    }
}
