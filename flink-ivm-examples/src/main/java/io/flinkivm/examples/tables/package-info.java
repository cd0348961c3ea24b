/**
 * Generated tables for SQL: a table's name, Flink SQL row type, primary key and rows
 * ({@link io.flinkivm.examples.tables.GeneratedTable}), as the TPC-H and Nexmark generators make them.
 */
package io.flinkivm.examples.tables;
