package io.flinkivm.examples.kafka;

import io.flinkivm.flink.types.DeadLetter;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;

/**
 * Counts every dead letter on its way to the dead-letter topic: records the parser rejected and
 * inserts the maintenance job rejected (metric {@value #METRIC}, accumulator {@value #ACCUMULATOR}).
 */
final class CountDeadLetters extends RichMapFunction<DeadLetter, DeadLetter> {
    private static final long serialVersionUID = 1L;

    static final String METRIC = "ivmDeadLettersWritten";
    static final String ACCUMULATOR = "dead-letters";

    private transient Counter counter;
    private transient LongCounter total;

    @Override
    public void open(OpenContext context) {
        counter = getRuntimeContext().getMetricGroup().counter(METRIC);
        total = new LongCounter();
        getRuntimeContext().addAccumulator(ACCUMULATOR, total);
    }

    @Override
    public DeadLetter map(DeadLetter letter) {
        counter.inc();
        total.add(1);
        return letter;
    }
}
