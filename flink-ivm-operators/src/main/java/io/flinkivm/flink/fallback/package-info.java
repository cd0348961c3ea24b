/**
 * The fallback: the partitioned delta joins over all atoms, with their stores in Flink state or in their
 * own maps.
 */
package io.flinkivm.flink.fallback;
