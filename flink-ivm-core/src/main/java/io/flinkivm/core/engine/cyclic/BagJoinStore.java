package io.flinkivm.core.engine.cyclic;

import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/**
 * The indexes of the cyclic plan's bags ({@link CyclicBooleanJoin}): each member's projections and
 * the value lists of the bags' delta joins, numbered as in {@link CompiledBagJoin}. (The bag tuples
 * themselves and the join over the bags are records of a {@link JoinRecordStore}.) Lists are linked
 * through their entries, so every update is O(1) on any key-value state.
 */
@Internal
public interface BagJoinStore {
    /** A member's tuples (its root view's projection onto the bag) → {@code TRUE}. */
    KeyValueState<Tuple, Boolean> projection(int set);

    /** Key → the entry (key ++ value) added last to the key's list of values. */
    KeyValueState<Tuple, Tuple> listHead(int list);

    /** Entry (key ++ value) → the entry added before it for the same key, or the empty tuple for the first. */
    KeyValueState<Tuple, Tuple> listNext(int list);

    /** Key → number of values in its list. */
    KeyValueState<Tuple, Integer> listSize(int list);
}
