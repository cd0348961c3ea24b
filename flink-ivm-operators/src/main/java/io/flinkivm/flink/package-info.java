/**
 * flink-ivm on Flink: the public API ({@link io.flinkivm.flink.FlinkIvm}, options, input and output
 * records). The operators live in {@code runtime}, the state layout in {@code state}, the
 * serializers in {@code types}.
 */
package io.flinkivm.flink;
