/**
 * The {@code flink-ivm} command line ({@link io.flinkivm.examples.cli.Main} registers the subcommands):
 * {@code explain} prints a query's classification and plan, {@code run} maintains a query over a CSV file
 * (on Flink or in memory), {@code example} runs a built-in example job, {@code kafka} maintains a query from
 * Kafka to Kafka ({@link io.flinkivm.examples.kafka}). The options several commands share, the converters, the
 * errors and the logging level are in {@link io.flinkivm.examples.command}. The measurements ({@code bench},
 * {@code soak}) are flink-ivm-bench's command line.
 */
package io.flinkivm.examples.cli;
