package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/**
 * A tuple under a small integer tag: the user key of flink-ivm's keyed maps that hold several logical
 * maps in one state (one RocksDB column family instead of one per join node and list), the tag naming
 * the logical map.
 */
@Internal
public record TaggedTuple(int tag, Tuple tuple) {}
