/**
 * Where a Flink job's state is, and where its CPU goes, as {@code bench} and {@code soak} measure them:
 * RocksDB's sizes per operator and column family ({@link io.flinkivm.bench.state.StateSizeReporter}),
 * checkpoints per task from Flink's REST API ({@link io.flinkivm.bench.state.CheckpointStats}), the
 * report that joins them ({@link io.flinkivm.bench.state.StateReport}), and the CPU time of this
 * process's threads by what they do ({@link io.flinkivm.bench.state.ThreadCpu}).
 */
package io.flinkivm.bench.state;
