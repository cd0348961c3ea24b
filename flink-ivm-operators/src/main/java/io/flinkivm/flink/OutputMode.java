package io.flinkivm.flink;

/** What the result stream carries at each trigger. */
public enum OutputMode {
    /** The complete current result: every row, then an end marker. */
    SNAPSHOT,
    /**
     * Only the rows whose payload changed since the previous trigger, as upserts keyed by the free
     * variables, then an end marker with their count. A row whose payload is the semiring's zero is
     * a deletion (only the fallback over a semiring that is not positive produces those). Computed
     * by comparing the result with the last emitted one, so a trigger costs as much as a snapshot's
     * enumeration, but only changes leave the operator; the sink keeps the emitted rows in state.
     */
    CHANGELOG
}
