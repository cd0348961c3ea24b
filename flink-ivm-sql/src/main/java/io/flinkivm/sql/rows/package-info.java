/**
 * Between Flink's tables and flink-ivm's records: table schemas as the translation's, table rows as
 * inserts and changes, and a view's result records as table rows.
 */
package io.flinkivm.sql.rows;
