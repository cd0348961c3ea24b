/**
 * TPC-H data: the eight tables as Flink rows ({@link io.flinkivm.examples.tpch.TpchTables}), and an example
 * job, revenue per (order, customer) maintained on Flink over customer, orders and lineitem rows from the
 * TPC-H generator streamed as inserts ({@link io.flinkivm.examples.tpch.TpchRevenue}).
 */
package io.flinkivm.examples.tpch;
