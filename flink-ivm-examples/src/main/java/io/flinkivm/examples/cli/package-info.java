/**
 * The {@code flink-ivm} command line: {@code explain} prints a query's maintenance plan, {@code run}
 * maintains a query over a CSV file of inserts. {@link io.flinkivm.examples.cli.Main} registers the subcommands.
 */
package io.flinkivm.examples.cli;
