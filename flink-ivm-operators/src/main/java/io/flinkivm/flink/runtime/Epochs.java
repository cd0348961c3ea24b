package io.flinkivm.flink.runtime;

/**
 * How flink-ivm keeps snapshots exact with parallel ingest. Each ingest subtask numbers its epochs
 * (the first is {@link #FIRST}) and stamps every delta of an insert with the current epoch. It ends an
 * epoch after a number of its own inserts, on a control record, on a processing-time tick and at the
 * end of its input: it broadcasts an {@link EpochEnd} to the sinks, then emits the epoch's number as a
 * watermark. Since Flink forwards the minimum watermark over an operator's inputs, watermark w at an
 * operator means that every ingest subtask has sent all deltas of its epochs up to w. Snapshot e is the
 * result over all inserts of epochs up to e of every ingest subtask: a consistent cut, the same set
 * whatever order the deltas arrive in, because the semirings are commutative and the stream holds
 * inserts only.
 *
 * <p>An operator may therefore apply a record of the lowest open epoch, {@code w + 1}, as soon as it
 * arrives; only records of later epochs (from ingest subtasks that are ahead) wait until the
 * watermark reaches them ({@link HeldBack}). Epoch numbers are ascending per ingest subtask, not
 * necessarily consecutive: a processing-time tick moves every subtask to the same number
 * ({@link #tickEpoch}), which keeps subtasks that end epochs by count at different rates aligned.
 */
public final class Epochs {
    private Epochs() {}

    /** The epoch of an ingest subtask's first inserts. */
    public static final long FIRST = 1;

    /** Bits of an insert id that hold the ingest subtask (Flink's parallelism is at most 2^15). */
    private static final int SUBTASK_BITS = 16;

    /** The lowest epoch that can still receive records once watermark {@code watermark} arrived. */
    public static long lowestOpen(long watermark) {
        return watermark < FIRST ? FIRST : watermark == Long.MAX_VALUE ? Long.MAX_VALUE : watermark + 1;
    }

    /**
     * The epoch an ingest subtask starts after a processing-time tick at {@code nowMillis}, given that it
     * was in epoch {@code current}: the same for every subtask ticking in the same period, and above
     * any epoch the subtask ended by count or control record in the period before (up to 2^20 of them).
     */
    public static long tickEpoch(long current, long nowMillis, long periodMillis) {
        return Math.max(current + 1, (nowMillis / periodMillis + 1) << 20);
    }

    /** An insert's id: the position (from 1) of its record in the input of ingest subtask {@code subtask}. */
    public static long insertId(int subtask, long position) {
        return (position << SUBTASK_BITS) | subtask;
    }

    /** Where an insert id points, as dead letters name it: {@code record 17 of ingest subtask 2}. */
    public static String describeInsert(long insertId) {
        return "record " + (insertId >>> SUBTASK_BITS) + " of ingest subtask " + (insertId & ((1 << SUBTASK_BITS) - 1));
    }
}
