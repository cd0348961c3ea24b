/**
 * The border sink: the Boolean join over root views (or over the bags of the cyclic plan), with its
 * join records and bag maps in Flink state or in its own maps.
 */
package io.flinkivm.flink.border;
