package io.flinkivm.core.engine.join;

import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.Tuple;

/**
 * The state of the cyclic plan above the border ({@link CyclicBooleanJoin}): the Boolean join over
 * the bags (as {@link BooleanJoinStore}, one node per bag) and the bags' member indexes, numbered as
 * in {@link CompiledBagJoin}. Lists are linked through their entries, so every update is O(1) on any
 * key-value state.
 */
public interface BagJoinStore extends BooleanJoinStore {
    /** A member's tuples (its root view's projection onto the bag) → {@code TRUE}. */
    KeyValueState<Tuple, Boolean> projection(int set);

    /** Key → the entry (key ++ value) added last to the key's list of values. */
    KeyValueState<Tuple, Tuple> listHead(int list);

    /** Entry (key ++ value) → the entry added before it for the same key, or the empty tuple for the first. */
    KeyValueState<Tuple, Tuple> listNext(int list);

    /** Key → number of values in its list. */
    KeyValueState<Tuple, Integer> listSize(int list);
}
