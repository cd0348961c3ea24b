/**
 * The CSV fields of one line ({@link io.flinkivm.examples.csv.Csv}), as the {@code run} command's files, the
 * {@code kafka} command's records and a detached job's report files write and read them.
 */
package io.flinkivm.examples.csv;
