/**
 * What a job reports when no client collects its results: a program submitted detached ({@code flink run -d},
 * the web UI's "Submit New Job", {@code /jars/:id/run}) runs its {@code main} where nobody reads them. The job
 * writes the final snapshot's rows and its dead letters as CSV files ({@link io.flinkivm.examples.report.JobReport},
 * Flink's {@code FileSink}, exactly once) and keeps a summary in accumulators that survive restarts: the final
 * snapshot's id, its rows and an order-independent checksum, and the dead letters
 * ({@link io.flinkivm.examples.report.ResultChecksum}). {@link io.flinkivm.examples.report.FlinkClient} tells
 * whether a program runs detached.
 */
package io.flinkivm.examples.report;
