/**
 * flink-ivm on Flink: the public API ({@link io.flinkivm.flink.FlinkIvm}, options, the job) and the
 * graph translation behind it. The operators live in one package per plan family, the records and serializers in {@code types}.
 */
package io.flinkivm.flink;
