/**
 * The Flink operators of a maintenance plan: ingest (sequencing and routing), one keyed function
 * per stateful view, the root views, the border sink with the Boolean join, and the fallback.
 */
package io.flinkivm.flink.runtime;
