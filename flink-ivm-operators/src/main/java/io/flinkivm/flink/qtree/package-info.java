/**
 * The q-tree sink of a q-hierarchical plan: the q-tree join, with its entries in Flink state or in its
 * own maps.
 */
package io.flinkivm.flink.qtree;
