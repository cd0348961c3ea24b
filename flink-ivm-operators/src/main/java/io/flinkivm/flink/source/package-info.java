/**
 * A bounded, checkpointed Flink source over a fixed list of ordered partitions, assigned
 * deterministically: at parallelism P, reader subtask i reads the partitions p with p mod P == i.
 */
package io.flinkivm.flink.source;
