/**
 * What the commands of the {@code flink-ivm} and {@code flink-ivm-bench} command lines share: the options
 * declared once ({@link io.flinkivm.examples.command.FlinkOptions},
 * {@link io.flinkivm.examples.command.QueryTextOptions}, {@link io.flinkivm.examples.command.OutputModeOption},
 * {@code --log-level}), their converters, the errors and exit codes ({@link io.flinkivm.examples.command.CliException}),
 * and the configured command line ({@link io.flinkivm.examples.command.CommandLines}).
 */
package io.flinkivm.examples.command;
