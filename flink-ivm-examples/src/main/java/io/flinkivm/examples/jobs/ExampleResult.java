package io.flinkivm.examples.jobs;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.Tuple;
import java.util.Map;

/**
 * The outcome of an example run.
 *
 * @param plan the plan that ran
 * @param result the final snapshot: the result after every insert
 * @param inserts the number of inserts
 * @param snapshots the number of complete snapshots seen (progress lines)
 * @param deadLetters the number of dead letters (rejected inserts or failed updates)
 * @param millis wall-clock time of the Flink job, start-up included
 */
public record ExampleResult<T>(
        MaintenancePlan plan, Map<Tuple, T> result, long inserts, int snapshots, long deadLetters, long millis) {}
