package io.flinkivm.core.query;

/**
 * One tuple of a query result with its payload.
 *
 * @param tuple values of the free variables, in head order
 * @param payload the tuple's non-zero payload
 */
public record ResultTuple<T>(Tuple tuple, T payload) {}
