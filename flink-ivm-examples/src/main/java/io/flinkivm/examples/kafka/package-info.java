/**
 * The {@code kafka} subcommand: a Flink job that reads inserts from Kafka (CSV or JSON, one topic or one
 * per relation), dead-letters malformed records, and writes snapshots of the result to Kafka exactly once.
 */
package io.flinkivm.examples.kafka;
