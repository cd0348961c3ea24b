/**
 * The SQL translation: Calcite's parser, name resolution against table schemas, and the translation of
 * the select-project-join-aggregate subset into a conjunctive query, a semiring and per-table payloads
 * ({@link io.flinkivm.sql.translate.SqlTranslation}), evaluated on each table row where it enters.
 */
package io.flinkivm.sql.translate;
