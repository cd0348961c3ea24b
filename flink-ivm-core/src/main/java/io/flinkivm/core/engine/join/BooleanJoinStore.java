package io.flinkivm.core.engine.join;

import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.Tuple;

/**
 * The state of the Boolean full join above the border, per join-tree node: linked lists of live
 * tuples per join key, linked lists of tuples waiting for a child's key to become live, and each
 * waiting tuple's number of unsatisfied children. Linked lists keep every update O(1) on any
 * key-value state (no read-modify-write of whole lists).
 */
public interface BooleanJoinStore {
    /** Key with the parent → the most recently live tuple with that key. */
    KeyValueState<Tuple, Tuple> liveHead(int node);

    /** Live tuple → the next live tuple with the same key. */
    KeyValueState<Tuple, Tuple> liveNext(int node);

    /** Key of child {@code child} (its index among node's children) → a tuple waiting for it. */
    KeyValueState<Tuple, Tuple> waitHead(int node, int child);

    /** Waiting tuple → the next tuple waiting for the same key of the same child. */
    KeyValueState<Tuple, Tuple> waitNext(int node, int child);

    /** Present but not yet live tuple → number of children without a live match. */
    KeyValueState<Tuple, Integer> missing(int node);
}
