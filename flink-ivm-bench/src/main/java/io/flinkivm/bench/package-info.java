/**
 * The {@code bench} subcommand of flink-ivm-bench: workloads (a query and a seeded insert stream), the systems that
 * maintain it (core engines, flink-ivm jobs, Flink SQL, a forwarding-only keyed job) and the harness
 * that measures them the same way and writes {@code results.csv}.
 */
package io.flinkivm.bench;
