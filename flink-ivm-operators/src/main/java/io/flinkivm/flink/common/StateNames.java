package io.flinkivm.flink.common;

import org.apache.flink.annotation.Internal;

/** Names of flink-ivm's keyed state; part of the savepoint format, so keep them stable. */
@Internal
public final class StateNames {
    private StateNames() {}

    /** A stateful join view of a view tree: its children's payloads by key (within the tree's key). */
    public static String view(int node) {
        return "view-" + node;
    }

    /** A tree operator's partial aggregates of a root view with an empty schema, per epoch. */
    public static final String PARTIALS = "root-partials";

    /** The border sink's records: per root tuple (and bag tuple) its payload and place in the join. */
    public static final String JOIN_RECORDS = "join-records";

    /** The heads of the border sink's join lists (live, waiting, in-join), by list and key. */
    public static final String JOIN_HEADS = "join-heads";

    /** In changelog mode, the border sink's records that changed since the last trigger. */
    public static final String JOIN_DIRTY = "join-dirty";

    // The cyclic plan's bag indexes are named by core's BagJoinMaps ("bag-set-0", ...), where the
    // maps are laid out.

    public static String relation(int atom) {
        return "relation-" + atom;
    }

    public static String indexHead(int atom, int index) {
        return "index-head-" + atom + "-" + index;
    }

    public static String indexNext(int atom, int index) {
        return "index-next-" + atom + "-" + index;
    }

    /** The previous links of an index, kept where tuples leave (inputs with deletes). */
    public static String indexPrev(int atom, int index) {
        return "index-prev-" + atom + "-" + index;
    }

    public static final String RESULT = "result";

    /**
     * The fallback's rows of relation {@code relation} (its index in the query) with deletes that no atom
     * matches (a selection in every atom over it rejects them), kept so that their deletes are checked.
     */
    public static String rowsOutside(int relation) {
        return "rows-outside-" + relation;
    }

    /** The row check of a changelog relation: the payload of the current row (the sum of its changes). */
    public static final String LIVE_ROW = "live-row";

    /** The q-tree sink's entries, per q-tree node and value of the node's path. */
    public static final String QTREE_ENTRIES = "qtree-entries";

    /** In changelog mode, the q-tree sink's entries that changed since the last trigger. */
    public static final String QTREE_DIRTY = "qtree-dirty";

    /** A key stage's row stored under the current key value. */
    public static final String KEY_ROW = "key-row";

    /** A key stage's rows waiting for the row of the current key value. */
    public static final String KEY_WAITING = "key-waiting";

    /** Under deletes, a key stage's rows that look the current key value up, with their payloads. */
    public static final String KEY_REFERENCES = "key-references";

    /** An ingest subtask's epoch, counts and position (union operator state of {@code IngestPosition}s). */
    public static final String INGEST_STATE = "ingest-state";

    /** Ingest (operator state, jobs with windowed relations): per subtask, the largest event-time watermark of its input. */
    public static final String INGEST_EVENT_TIME = "ingest-event-time";

    /** The same as text, as versions before {@link #INGEST_STATE} wrote it; read at a restore only. */
    public static final String INGEST_EPOCHS = "ingest-epochs";

    /** A sink's record of the epochs the ingest subtasks ended (union operator state). */
    public static final String EPOCH_CUTS = "epoch-cuts";

    /** In changelog mode, the fallback's result payloads at the last trigger of the tuples changed since. */
    public static final String RESULT_BEFORE = "result-before";

    /** A snapshotting operator's counters (last trigger, processing-time snapshots). */
    public static final String SNAPSHOT_COUNTERS = "snapshot-counters";

    /**
     * Records held back by an operator until the watermark passes their epoch, with their keys (union
     * operator state: a checkpoint's copy goes to its operator state file, not to the keyed backend).
     */
    public static final String HELD_BACK = "held-back";

    /** Under a state TTL, a sink's processing time at which the current key's state is dropped. */
    public static final String IDLE_UNTIL = "idle-until";

    /** Under a state TTL, a sink's timers that drop a key's state (the timer service's name). */
    public static final String IDLE_TIMERS = "idle-state";

    /** The sinks' internal timer service of closing windows (event time of the cuts). */
    public static final String WINDOW_TIMERS = "window-close";
}
