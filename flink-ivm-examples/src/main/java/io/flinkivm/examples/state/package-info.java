/**
 * Where a Flink job's state is: RocksDB's sizes per operator and column family
 * ({@link io.flinkivm.examples.state.StateSizeReporter}), checkpoints per task from Flink's REST API
 * ({@link io.flinkivm.examples.state.CheckpointStats}), and the report that joins them for {@code bench}
 * and {@code soak} ({@link io.flinkivm.examples.state.StateReport}).
 */
package io.flinkivm.examples.state;
