package io.flinkivm.core.query;

import org.apache.flink.annotation.PublicEvolving;

/**
 * One tuple of a query result with its payload.
 *
 * @param tuple values of the free variables, in head order
 * @param payload the tuple's non-zero payload
 */
@PublicEvolving
public record ResultTuple<T>(Tuple tuple, T payload) {}
