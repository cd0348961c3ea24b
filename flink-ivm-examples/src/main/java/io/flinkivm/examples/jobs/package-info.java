/**
 * Runnable example jobs with built-in data generators ({@link io.flinkivm.examples.jobs.ExampleJobs} lists
 * them), the runner that maintains their queries on Flink, and the Flink settings shared with the command line.
 */
package io.flinkivm.examples.jobs;
