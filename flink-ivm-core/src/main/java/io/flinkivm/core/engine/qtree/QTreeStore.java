package io.flinkivm.core.engine.qtree;

import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/**
 * The state of the q-tree join ({@link QTreeJoin}): one {@link QTreeEntry} per (q-tree node, value of the
 * node's path), and the entries changed since the last trigger. In memory entries are live objects; a
 * keyed-state store reads copies that {@link #update} writes back.
 *
 * @param <T> the payload type
 */
@Internal
public interface QTreeStore<T> {
    /** The entry of {@code key} at {@code node}, or null. */
    QTreeEntry<T> get(int node, Tuple key);

    /** Stores a new entry. */
    void add(int node, Tuple key, QTreeEntry<T> entry);

    /** Writes back an entry that {@link #get} returned and the caller changed. */
    void update(int node, Tuple key, QTreeEntry<T> entry);

    /** Removes an entry that nothing supports any more. */
    void remove(int node, Tuple key);

    /** Changelog: remembers that an entry changed (once per trigger). */
    void markDirty(int node, Tuple key);

    /** Changelog: every (node, key) marked since {@link #clearDirty}, each once. */
    void forEachDirty(JoinRecordStore.DirtyAction action);

    /** Changelog: forgets the marks. */
    void clearDirty();
}
