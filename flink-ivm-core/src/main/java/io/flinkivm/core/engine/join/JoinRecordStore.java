package io.flinkivm.core.engine.join;

import io.flinkivm.core.query.Tuple;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * The state of the join above the border: one {@link JoinRecord} per (node, tuple), and the heads of
 * the linked lists that records continue (per key: its first live tuple, the first tuple waiting for a
 * child's key, the first in-join parent with a child's key). Linked lists keep every update O(1) on any
 * key-value state. In memory the records are live objects; on Flink a record read is a copy that
 * {@link #update} writes back.
 *
 * <p>Node ids are the join layout's nodes; a store may hold records of further ids that are not join
 * nodes (the cyclic plan keeps its root payloads there, after the bags).
 *
 * @param <T> the payload type
 */
@Internal
public interface JoinRecordStore<T> {
    /** The record of {@code tuple} at {@code node}, or null. */
    JoinRecord<T> get(int node, Tuple tuple);

    /** Stores a record that {@link #get} did not return (a new tuple). */
    void add(int node, Tuple tuple, JoinRecord<T> record);

    /** Writes back a record that {@link #get} returned and the caller changed. */
    void update(int node, Tuple tuple, JoinRecord<T> record);

    /**
     * Every record of {@code node} with its tuple, in the store's order (a scan: for enumerating the
     * join's root); the store must not change while it is iterated.
     */
    Iterator<Map.Entry<Tuple, JoinRecord<T>>> records(int node);

    /**
     * The live records of {@code node}, each once, in any order: the join's root, which keeps no live
     * list, is enumerated from this scan. By default {@link #records} filtered, without slots; a store
     * may keep the live tuples apart ({@link #becameLive}), so that the scan visits no record that is
     * not live, with {@code slots} slots per tuple ({@link RecordScan#remember}).
     */
    default RecordScan<T> liveRecords(int node, int slots) {
        Iterator<Map.Entry<Tuple, JoinRecord<T>>> all = records(node);
        return new RecordScan<>() {
            private Map.Entry<Tuple, JoinRecord<T>> current;

            @Override
            public boolean next() {
                while (all.hasNext()) {
                    current = all.next();
                    if (current.getValue().isLive()) {
                        return true;
                    }
                }
                current = null;
                return false;
            }

            @Override
            public Tuple tuple() {
                return current.getKey();
            }

            @Override
            public JoinRecord<T> record() {
                return current.getValue();
            }
        };
    }

    /**
     * Tells the store that {@code tuple} of the join's root {@code node} became live (once per tuple),
     * for {@link #liveRecords}; by default nothing.
     */
    default void becameLive(int node, Tuple tuple, JoinRecord<T> record) {}

    /** The most recently live tuple of {@code node} with key {@code key} to its parent, or null. */
    Tuple liveHead(int node, Tuple key);

    void setLiveHead(int node, Tuple key, Tuple tuple);

    /** The first tuple of {@code node} waiting for key {@code key} of its {@code child}-th join child, or null. */
    Tuple waitHead(int node, int child, Tuple key);

    /** Sets (or, with a null tuple, removes) the head of a waiting list. */
    void setWaitHead(int node, int child, Tuple key, Tuple tuple);

    /** Changelog index: the first in-join tuple of {@code child}'s parent whose key of {@code child} is {@code key}, or null. */
    Tuple upHead(int child, Tuple key);

    void setUpHead(int child, Tuple key, Tuple parentTuple);

    /** Changelog: remembers that the record of {@code tuple} at {@code node} became dirty (once per trigger). */
    void markDirty(int node, Tuple tuple);

    /**
     * Changelog: every (node, tuple) marked dirty since {@link #clearDirty}, each once, in the same order
     * on every call until the marks change (a trigger's second pass relies on it).
     */
    void forEachDirty(DirtyAction action);

    /** Changelog: forgets the dirty marks (the records' own flags are the caller's to reset). */
    void clearDirty();

    /** Receives a dirty (node, tuple). */
    @FunctionalInterface
    interface DirtyAction {
        void accept(int node, Tuple tuple);
    }
}
