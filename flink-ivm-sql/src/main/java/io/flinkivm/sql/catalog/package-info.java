/**
 * flink-ivm from the SQL Client and the SQL Gateway: a catalog ({@code 'type' = 'flink-ivm'}) whose database
 * {@code sys} holds the procedures {@code maintain_view} and {@code explain_view} (FLIP-311).
 */
package io.flinkivm.sql.catalog;
