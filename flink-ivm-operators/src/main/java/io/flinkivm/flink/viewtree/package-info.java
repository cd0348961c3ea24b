/**
 * The view tree operator: one keyed function per stateful view tree, its state over Flink's keyed state
 * or its own maps, sending root deltas to the sink.
 */
package io.flinkivm.flink.viewtree;
