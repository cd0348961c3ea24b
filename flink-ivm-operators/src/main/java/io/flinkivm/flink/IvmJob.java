package io.flinkivm.flink;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.EpochEnd;
import io.flinkivm.flink.types.ResultRecord;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The streams of a flink-ivm job built by {@link FlinkIvm#maintain}.
 *
 * @param plan the plan the operators run
 * @param layout the job's operators, their parallelism and partitioning
 * @param results at each trigger, the result's rows (a snapshot) or its changes since the previous
 *     trigger (a changelog), then an end marker per sink subtask ({@link ResultRecord})
 * @param deadLetters rejected input records and failed updates, with their reasons
 * @param epochs the ingest subtasks' epoch ends: how many inserts each subtask's epochs up to a
 *     watermark hold (to tell how far the job is: a watermark w after the sink means that every insert
 *     of epochs up to w has been applied)
 * @param semiring the semiring of the payloads
 * @param options the options the job was built with
 */
@PublicEvolving
public record IvmJob<T>(
        MaintenancePlan plan,
        FlinkJobLayout layout,
        DataStream<ResultRecord<T>> results,
        DataStream<DeadLetter> deadLetters,
        DataStream<EpochEnd> epochs,
        Semiring<T> semiring,
        IvmOptions options) {

    /** Whether {@link #results()} carries snapshots or a changelog. */
    public OutputMode outputMode() {
        return options.outputMode();
    }

    /**
     * The plan's explanation, then its windows (the section {@code Windows:}, when relations are
     * windowed) and the Flink job's operators.
     */
    public String explain() {
        return plan.explain() + options.windows().explain(plan) + layout.explain();
    }

    /** Whether a changelog's updates come with their old payload ({@code -U}) first. */
    public boolean updateBefore() {
        return options.updateBefore();
    }
}
