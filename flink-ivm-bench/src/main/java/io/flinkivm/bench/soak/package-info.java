/**
 * The {@code soak} subcommand: a long generated insert stream through the Flink job with periodic
 * checkpoints, measured per tenth of the stream (end-to-end progress at the sink), with the checkpoint
 * statistics of Flink's REST API and a final check against the in-memory engine.
 */
package io.flinkivm.bench.soak;
