/**
 * flink-ivm's SQL API: {@link io.flinkivm.sql.FlinkIvmSql#sql} maintains a SQL query over Flink tables
 * and returns a {@link io.flinkivm.sql.SqlView}; {@link io.flinkivm.sql.IvmTables} turns a DataStream
 * job's changelog into a table.
 */
package io.flinkivm.sql;
