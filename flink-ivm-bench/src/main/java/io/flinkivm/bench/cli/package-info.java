/**
 * The {@code flink-ivm-bench} command line, how flink-ivm measures itself ({@link io.flinkivm.bench.cli.BenchMain}
 * registers the subcommands): {@code bench} ({@link io.flinkivm.bench}) and {@code soak}
 * ({@link io.flinkivm.bench.soak}). Not shipped: the jar a user runs is flink-ivm-examples'.
 */
package io.flinkivm.bench.cli;
