package io.flinkivm.flink.keys;

import io.flinkivm.core.engine.keys.KeyStageLogic;
import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import java.util.List;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * Where the key route and the key stages send rows: to a later stage on its side output, to the
 * ingest on the main output; a row whose payload cannot be multiplied by its key row's to the dead
 * letters, and dropped rows are counted.
 */
final class StageOutput<T> implements KeyStageLogic.Output<T> {
    private final Output<StreamRecord<InputRecord<T>>> output;
    private final List<OutputTag<StageRow<T>>> stages;
    private final OutputTag<DeadLetter> deadLetters;
    private final Counter drops;
    private final Counter failures;

    StageOutput(
            Output<StreamRecord<InputRecord<T>>> output,
            List<OutputTag<StageRow<T>>> stages,
            OutputTag<DeadLetter> deadLetters,
            Counter drops,
            Counter failures) {
        this.output = output;
        this.stages = stages;
        this.deadLetters = deadLetters;
        this.drops = drops;
        this.failures = failures;
    }

    @Override
    public void dropped(StageRow<T> row) {
        drops.inc();
    }

    @Override
    public void failed(StageRow<T> row, ArithmeticException e) {
        failures.inc();
        output.collect(
                deadLetters,
                new StreamRecord<>(new DeadLetter(
                        row.origin(),
                        "the payload of a row cannot take its key row's: " + e.getMessage(),
                        String.valueOf(row))));
    }

    @Override
    public void toStage(int stage, StageRow<T> row) {
        OutputTag<StageRow<T>> tag = stages.get(stage);
        if (tag == null) {
            throw new IllegalStateException(
                    "no edge to key stage " + stage + " from here; the job does not fit its plan");
        }
        output.collect(tag, new StreamRecord<>(row));
    }

    @Override
    public void toIngest(String relation, Tuple tuple, T payload, String origin) {
        output.collect(new StreamRecord<>(InputRecord.insert(relation, tuple, payload, origin)));
    }
}
