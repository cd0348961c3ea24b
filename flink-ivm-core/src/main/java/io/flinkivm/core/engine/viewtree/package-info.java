/**
 * Below the border: what a delta does to a view tree, written once against
 * {@link io.flinkivm.core.engine.viewtree.ViewTreeStore} and shared by the in-memory engines and the Flink tree operator.
 */
package io.flinkivm.core.engine.viewtree;
