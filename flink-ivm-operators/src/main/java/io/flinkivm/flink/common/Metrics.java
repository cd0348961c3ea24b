package io.flinkivm.flink.common;

import org.apache.flink.annotation.Internal;

/** Names of flink-ivm's Flink metrics (see docs/metrics.md). */
@Internal
public final class Metrics {
    private Metrics() {}

    /** Inserts accepted (ingest; also per relation under the group {@code relation}). */
    public static final String INSERTS = "ivmInserts";
    /** Records rejected to the dead-letter output. */
    public static final String DEAD_LETTERS = "ivmDeadLetters";
    /** Rows of windowed relations that came after all their windows closed (also counted under {@link #DEAD_LETTERS}). */
    public static final String LATE_ROWS = "ivmLateRows";
    /** Deltas received by a view operator. */
    public static final String DELTAS_IN = "ivmDeltasIn";
    /** Non-zero deltas sent on by a view operator. */
    public static final String DELTAS_OUT = "ivmDeltasPropagated";
    /** Root tuples that crossed the border (became visible to the Boolean join). */
    public static final String BORDER_CROSSINGS = "ivmBorderCrossings";
    /**
     * Tuples in the sink's Boolean join that are live (extend to a full join result in their subtree):
     * root tuples in the acyclic plan, bag tuples in the cyclic plan; per sink subtask.
     */
    public static final String JOIN_LIVE_TUPLES = "ivmBooleanJoinLiveTuples";
    /** Cyclic plan: tuples materialized in the bags (live or not), in total and per bag under the group {@code bag}. */
    public static final String BAG_TUPLES = "ivmBagTuples";
    /** Snapshots emitted by the sink. */
    public static final String SNAPSHOTS = "ivmSnapshots";
    /** Result rows in the last snapshot of this sink subtask. */
    public static final String LAST_SNAPSHOT_ROWS = "ivmLastSnapshotRows";
    /** Milliseconds the last snapshot's enumeration took. */
    public static final String LAST_ENUMERATION_MS = "ivmLastEnumerationMillis";
    /** Epochs ended by an ingest subtask ({@link Epochs}). */
    public static final String EPOCHS = "ivmEpochs";
    /** Records an operator holds back until the watermark reaches their epoch (ingest subtasks ahead of others). */
    public static final String HELD_BACK = "ivmHeldBack";
    /** SQL: table rows read by the conversion of a table's rows to inserts. */
    public static final String ROWS_IN = "ivmRowsIn";
    /** SQL: table rows that passed no filter of the query (WHERE and ON on that table): no insert, no state. */
    public static final String ROWS_FILTERED = "ivmRowsFiltered";
    /** Key stages: rows rejected because they break a key (also counted under {@link #DEAD_LETTERS}). */
    public static final String KEY_VIOLATIONS = "ivmKeyViolations";
    /** Key stages: rows that waited for their key rows. */
    public static final String KEY_WAITS = "ivmKeyWaits";
    /** Key stages: waiting rows released when their key rows arrived. */
    public static final String KEY_RELEASES = "ivmKeyReleases";
    /**
     * Key stages: rows dropped because the key row they look up was dropped by its atom's selection or
     * its table's filter (kept as a mark), or does not fit them.
     */
    public static final String KEY_DROPS = "ivmKeyDrops";
    /** Deletes (and old rows of updates) rejected because their row does not hold what they take away. */
    public static final String ABSENT_ROWS = "ivmAbsentRows";
    /** Changes that took a payload away (deletes, old rows of updates), after the row check. */
    public static final String RETRACTIONS = "ivmRetractions";
    /** Updates that failed arithmetically (e.g. natural-number overflow) and were dead-lettered. */
    public static final String FAILED_UPDATES = "ivmFailedUpdates";
    /** Under a state TTL, the sink's Flink keys whose state was dropped after the TTL without an update. */
    public static final String EXPIRED_KEYS = "ivmExpiredKeys";
    /** Keyed by a window variable, the Flink keys whose state was dropped once their windows closed. */
    public static final String CLOSED_WINDOW_KEYS = "ivmClosedWindowKeys";
}
