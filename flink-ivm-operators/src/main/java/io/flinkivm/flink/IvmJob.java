package io.flinkivm.flink;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.flink.runtime.EpochEnd;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The streams of a flink-ivm job built by {@link FlinkIvm#maintain}.
 *
 * @param plan the plan the operators run
 * @param layout the job's operators, their parallelism and partitioning
 * @param results snapshots of the result (rows, then an end marker per sink subtask)
 * @param deadLetters rejected input records and failed updates, with their reasons
 * @param epochs the ingest subtasks' epoch ends: how many inserts each subtask's epochs up to a
 *     watermark hold (to tell how far the job is: a watermark w after the sink means that every insert
 *     of epochs up to w has been applied)
 */
public record IvmJob<T>(MaintenancePlan plan, FlinkJobLayout layout, DataStream<ResultRecord<T>> results,
        DataStream<DeadLetter> deadLetters, DataStream<EpochEnd> epochs) {
}
