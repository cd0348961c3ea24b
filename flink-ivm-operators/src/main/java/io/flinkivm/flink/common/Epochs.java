package io.flinkivm.flink.common;

import io.flinkivm.flink.types.EpochEnd;
import org.apache.flink.annotation.Internal;

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
 * <p>An epoch number is a <em>major</em> number (high bits) and a <em>minor</em> one (the low
 * {@value #MINOR_BITS} bits). Only an end that may ask for a snapshot (a count of inserts, a control
 * record, a tick, the end of the input) ends a major epoch: it is reported as the major's last number
 * ({@link #endOfMajor}) and the next epoch starts the next major. An end without a snapshot (progress,
 * {@code IvmOptions.withProgressEvery}) only moves to the next minor. So a snapshot's cut is always the
 * last number of a major, and a record of the same major as the lowest open epoch can never fall on
 * the wrong side of one: an operator applies it as soon as it arrives ({@link #applicable}). Only
 * records of later majors (from ingest subtasks that are ahead) wait until the watermark reaches their
 * major ({@link HeldBack}). Subtasks that end progress epochs at different rates therefore hold nothing
 * back, however far apart their counts drift; before this, every record of a subtask ahead waited in
 * memory and in each checkpoint.
 *
 * <p>Major numbers are ascending per ingest subtask, not necessarily consecutive: a processing-time
 * tick moves every subtask to the same major ({@link #tickEpoch}), which keeps subtasks that end
 * epochs by count at different rates aligned.
 */
@Internal
public final class Epochs {
    private Epochs() {}

    /** The epoch of an ingest subtask's first inserts. */
    public static final long FIRST = 1;

    /** Bits of an insert id that hold the ingest subtask (Flink's parallelism is at most 2^15). */
    private static final int SUBTASK_BITS = 16;

    /** Bits of an epoch number that hold its minor number. */
    static final int MINOR_BITS = 12;

    private static final long MINOR_MASK = (1L << MINOR_BITS) - 1;

    /** Major epochs a subtask may end by count or control record between two ticks and stay aligned. */
    private static final int TICK_ROOM_BITS = 8;

    /** The lowest epoch that can still receive records once watermark {@code watermark} arrived. */
    public static long lowestOpen(long watermark) {
        return watermark < FIRST ? FIRST : watermark == Long.MAX_VALUE ? Long.MAX_VALUE : watermark + 1;
    }

    /**
     * The highest epoch whose records an operator may apply once watermark {@code watermark} arrived:
     * every epoch of the lowest open epoch's major, since no snapshot cut falls inside a major. Later
     * ones wait.
     */
    public static long applicable(long watermark) {
        long open = lowestOpen(watermark);
        return open == Long.MAX_VALUE ? Long.MAX_VALUE : endOfMajor(open);
    }

    /** The number under which an end that may ask for a snapshot reports epoch {@code epoch}: its major's last. */
    public static long endOfMajor(long epoch) {
        return epoch | MINOR_MASK;
    }

    /** The first epoch of the major after {@code epoch}'s. */
    public static long nextMajor(long epoch) {
        return endOfMajor(epoch) + 1;
    }

    /**
     * The epoch after a progress end of {@code epoch}: its next minor, or the next major once the minors
     * run out (a major end without a snapshot, which only makes later records wait at that one point).
     */
    public static long nextMinor(long epoch) {
        return (epoch & MINOR_MASK) + 1 < MINOR_MASK ? epoch + 1 : nextMajor(epoch);
    }

    /**
     * The epoch an ingest subtask starts after a processing-time tick at {@code nowMillis}, given that it
     * was in epoch {@code current}: the first of a major that is the same for every subtask ticking in
     * the same period, and above any major the subtask ended by count or control record in the period
     * before (up to 2^{@value #TICK_ROOM_BITS} of them).
     */
    public static long tickEpoch(long current, long nowMillis, long periodMillis) {
        long major = (nowMillis / periodMillis + 1) << TICK_ROOM_BITS;
        return Math.max(nextMajor(current), major << MINOR_BITS);
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
