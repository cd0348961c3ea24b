package io.flinkivm.flink.keys;

import io.flinkivm.core.engine.keys.KeyStageLogic;
import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.InputRecord;
import java.util.List;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * Where the key route and the key stages send rows: to a later stage on its side output, to the
 * ingest on the main output.
 */
final class StageOutput<T> implements KeyStageLogic.Output<T> {
    private final Output<StreamRecord<InputRecord<T>>> output;
    private final List<OutputTag<StageRow<T>>> stages;

    StageOutput(Output<StreamRecord<InputRecord<T>>> output, List<OutputTag<StageRow<T>>> stages) {
        this.output = output;
        this.stages = stages;
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
