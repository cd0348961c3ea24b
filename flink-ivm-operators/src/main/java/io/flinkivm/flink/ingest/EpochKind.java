package io.flinkivm.flink.ingest;

/** Why an ingest subtask ends an epoch, which says what its {@code EpochEnd} asks of the sinks. */
enum EpochKind {
    /** After {@code snapshotEvery} inserts, on a snapshot request, at the end of the input: a snapshot of an exact cut. */
    SNAPSHOT(true, true),
    /** After {@code progressEvery} inserts: progress only, no snapshot. */
    PROGRESS(true, false),
    /** On a processing-time tick: a snapshot of a cut that depends on timing. */
    TICK(false, true);

    private final boolean deterministic;
    private final boolean snapshot;

    EpochKind(boolean deterministic, boolean snapshot) {
        this.deterministic = deterministic;
        this.snapshot = snapshot;
    }

    /** Whether the cut depends only on the input (not on timing). */
    boolean deterministic() {
        return deterministic;
    }

    /** Whether the sinks emit a snapshot (or the changes) at this cut. */
    boolean snapshot() {
        return snapshot;
    }
}
