/**
 * A TPC-H example: revenue per (order, customer) maintained on Flink over customer, orders and
 * lineitem rows from the TPC-H generator, streamed as inserts. {@link io.flinkivm.examples.tpch.TpchRevenue} is the job.
 */
package io.flinkivm.examples.tpch;
