/**
 * What every operator family uses: the epoch rules and held-back records, the HyperCube cells and root
 * delta batches on the way to the sink, metric and state names, and the state layout with its key-group maps.
 */
package io.flinkivm.flink.common;
