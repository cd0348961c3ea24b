package io.flinkivm.core.engine.fallback;

import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.Tuple;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * The state of the fallback delta-join plan: each atom's K-relation, its hash indexes as linked
 * lists (index key → most recent tuple, tuple → next tuple with the same key), and the materialized
 * result.
 */
@Internal
public interface DeltaJoinStore<T> {
    /** Atom {@code atom}'s tuples (over its variables) and payloads. */
    KeyValueState<Tuple, T> relation(int atom);

    /** Index {@code index} of atom {@code atom}: key → the most recently added tuple with that key. */
    KeyValueState<Tuple, Tuple> indexHead(int atom, int index);

    /** Index {@code index} of atom {@code atom}: tuple → the next tuple with the same key. */
    KeyValueState<Tuple, Tuple> indexNext(int atom, int index);

    /**
     * Index {@code index} of atom {@code atom}: tuple → the previous tuple with the same key, so that a
     * tuple whose payload returns to zero (a delete) is unlinked and removed in O(1); null (the default)
     * if this store keeps no such links: such tuples then stay with payload zero, and the joins skip them.
     */
    default KeyValueState<Tuple, Tuple> indexPrev(int atom, int index) {
        return null;
    }

    /** The materialized result (head tuples with non-zero payloads). */
    KeyValueState<Tuple, T> result();

    /** All entries of {@link #result()}. */
    Iterator<Map.Entry<Tuple, T>> resultEntries();
}
