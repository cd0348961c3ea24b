package io.flinkivm.examples.report;

import java.util.List;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.accumulators.LongMaximum;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;

/**
 * A function that counts into accumulators and keeps the counts in operator state: a restored subtask starts
 * from the counts of the checkpoint (on a rescale, each subtask takes some of the old subtasks' counts), so the
 * job's accumulators count what the job's output holds, once. Accumulators alone start at 0 after a restart.
 *
 * @param <IN> the input type
 */
abstract class Tally<IN> extends ProcessFunction<IN, String> implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;

    /** The operator state of the counts: one {@code long[]} per subtask (sums, then the maximum). */
    static final String STATE = "report-counts";

    private final List<String> sums;
    private final String maximum;
    private transient long[] values;
    private transient LongCounter[] counters;
    private transient LongMaximum max;
    private transient ListState<long[]> state;

    /**
     * @param sums the names of the accumulators that add up
     * @param maximum the name of an accumulator that keeps the largest value it is given, or null
     */
    Tally(List<String> sums, String maximum) {
        this.sums = List.copyOf(sums);
        this.maximum = maximum;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        state = context.getOperatorStateStore()
                .getListState(new ListStateDescriptor<>(STATE, PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO));
        values = new long[sums.size() + 1];
        if (context.isRestored()) {
            for (long[] restored : state.get()) {
                for (int i = 0; i < sums.size(); i++) {
                    values[i] += restored[i];
                }
                values[sums.size()] = Math.max(values[sums.size()], restored[sums.size()]);
            }
        }
    }

    @Override
    public void open(OpenContext context) {
        counters = new LongCounter[sums.size()];
        for (int i = 0; i < sums.size(); i++) {
            counters[i] = new LongCounter(values[i]);
            getRuntimeContext().addAccumulator(sums.get(i), counters[i]);
        }
        if (maximum != null) {
            max = new LongMaximum(values[sums.size()]);
            getRuntimeContext().addAccumulator(maximum, max);
        }
    }

    /** Adds {@code delta} to the sum {@code index} (its position in the constructor's list). */
    final void add(int index, long delta) {
        values[index] += delta;
        counters[index].add(delta);
    }

    /** Offers {@code value} to the maximum. */
    final void offer(long value) {
        values[sums.size()] = Math.max(values[sums.size()], value);
        max.add(value);
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        state.update(List.of(values.clone()));
    }
}
