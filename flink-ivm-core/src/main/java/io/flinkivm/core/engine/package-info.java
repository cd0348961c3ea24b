/**
 * The runtime: per-node maintenance logic written against small state interfaces, the in-memory
 * engine that implements them with hash maps, and the fallback delta-join engine.
 */
package io.flinkivm.core.engine;
