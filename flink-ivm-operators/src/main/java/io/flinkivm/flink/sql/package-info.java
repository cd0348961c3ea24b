/**
 * The SQL front end: Calcite's parser, name resolution against table schemas, and the translation of
 * the select-project-join-aggregate subset into a conjunctive query, a semiring and per-table payloads
 * ({@link io.flinkivm.flink.sql.SqlTranslation}); {@link io.flinkivm.flink.FlinkIvm#sql} maintains it over
 * Flink tables and returns a table ({@link io.flinkivm.flink.SqlView}).
 */
package io.flinkivm.flink.sql;
