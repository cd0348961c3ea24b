package io.flinkivm.core.engine.border;

import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.query.Tuple;
import java.util.HashMap;
import java.util.Map;

/**
 * The record of a child whose key is its whole tuple, by that key, as a walk reaches it from its
 * parent's tuple: the one live record under the key. Where the root scan remembers nothing (a store
 * in Flink's keyed state, RocksDB among them) the records read in one full enumeration are kept by
 * node and key, up to {@link #LOOKUP_CACHE} in all, so that a key shared by many root tuples is read
 * from the store once; the join does not change while one enumeration runs (a snapshot is taken
 * between two updates).
 *
 * @param <T> the payload type
 */
final class WholeKeyLookups<T> {
    /**
     * How many records one enumeration keeps: with its key and the map's entry about 150 bytes of heap
     * each, so at most about 20 MiB, freed when the enumeration ends. Beyond it, lookups go to the
     * store.
     */
    static final int LOOKUP_CACHE = 1 << 17;

    private final JoinRecordStore<T> store;
    /** Per node, the records read so far; null where nothing is kept (the scan remembers). */
    private final Map<Tuple, JoinRecord<T>>[] kept;

    private int keptCount;

    /** Lookups in {@code store}, of a join of {@code nodes} nodes, keeping what they read if {@code keep}. */
    @SuppressWarnings("unchecked")
    WholeKeyLookups(JoinRecordStore<T> store, int nodes, boolean keep) {
        this.store = store;
        this.kept = keep ? new Map[nodes] : null;
    }

    /** The live record of {@code node} under {@code key}; an {@link IllegalStateException} if there is none. */
    JoinRecord<T> live(int node, Tuple key) {
        Map<Tuple, JoinRecord<T>> byKey = kept == null ? null : kept[node];
        JoinRecord<T> r = byKey == null ? null : byKey.get(key);
        if (r != null) {
            return r;
        }
        r = store.get(node, key);
        if (r == null || !r.isLive()) {
            throw new IllegalStateException(
                    "join key " + key + " of node " + node + " has no live record where a live tuple joins it");
        }
        if (kept != null && keptCount < LOOKUP_CACHE) {
            if (byKey == null) {
                byKey = kept[node] = new HashMap<>();
            }
            byKey.put(key, r);
            keptCount++;
        }
        return r;
    }
}
