/**
 * The q-tree join of a q-hierarchical plan: entries per node of the q-tree, written once against
 * QTreeStore, and the in-memory store.
 */
package io.flinkivm.core.engine.qtree;
