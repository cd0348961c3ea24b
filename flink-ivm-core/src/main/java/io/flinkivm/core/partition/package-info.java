/**
 * How a plan's state is spread over parallel subtasks: HyperCube shares over the variables of a
 * join ({@link io.flinkivm.core.partition.HyperCube}) and the cells a tuple is sent to
 * ({@link io.flinkivm.core.partition.CellRouter}). Pure Java; the Flink job builder uses it.
 */
package io.flinkivm.core.partition;
