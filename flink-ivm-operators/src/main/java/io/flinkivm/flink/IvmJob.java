package io.flinkivm.flink;

import io.flinkivm.core.plan.MaintenancePlan;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The streams of a flink-ivm job built by {@link FlinkIvm#maintain}.
 *
 * @param plan the plan the operators run
 * @param results snapshots of the result (rows, then an end marker per sink subtask)
 * @param deadLetters rejected input records and failed updates, with their reasons
 */
public record IvmJob<T>(MaintenancePlan plan, DataStream<ResultRecord<T>> results, DataStream<DeadLetter> deadLetters) {
}
