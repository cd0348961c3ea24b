/**
 * Published benchmark queries (TPC-H Q1, Q3, Q5, Q9, Q10, Q12; Nexmark q3, q20) as texts with their tables'
 * schemas ({@link io.flinkivm.examples.queries.PublishedQuery}), read from resources.
 */
package io.flinkivm.examples.queries;
