/**
 * The {@code flink-ivm} command line: {@code explain} prints a query's maintenance plan, {@code run}
 * maintains a query over a CSV file of inserts (on Flink or in memory), {@code example} runs a built-in
 * example job. {@link io.flinkivm.examples.cli.Main} registers the subcommands.
 */
package io.flinkivm.examples.cli;
