package io.flinkivm.flink.types;

import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;

/**
 * An ingest subtask closed an epoch ({@code runtime.Epochs}): its epochs up to {@code epoch} hold its first
 * {@code inserts} inserts. Broadcast from every ingest subtask to every sink subtask (and to the view
 * trees keyed by a window), ahead of the watermark that closes the epoch, so that a sink knows the cut
 * of each snapshot: per ingest subtask, how many of its inserts the snapshot reflects, and its event
 * time.
 *
 * @param subtask the ingest subtask
 * @param generation increases when the job was restored at another ingest parallelism (the sink then
 *     starts a new cut from the restored totals)
 * @param epoch the epoch that ended
 * @param inserts the subtask's accepted inserts in epochs up to {@code epoch}
 * @param deterministic whether the epoch ended on something in the input (a count, a control record,
 *     the end of the input), so that a replay ends it at the same place; false for a processing-time tick
 * @param snapshot whether the epoch's end asks for a snapshot; a progress epoch
 *     ({@code IvmOptions.progressEvery}) only moves the watermark on
 * @param eventTime the subtask's event-time watermark when the epoch ended ({@link #NO_EVENT_TIME}
 *     before its input sent one): it accepted no row for a window that had closed by then, so once
 *     every subtask's epoch end with an event time at least t has been applied, windows closed at t
 *     receive nothing more
 */
@PublicEvolving
public record EpochEnd(
        int subtask, int generation, long epoch, long inserts, boolean deterministic, boolean snapshot, long eventTime)
        implements Serializable {

    /** The event time of an end whose subtask's input sent no event-time watermark yet. */
    public static final long NO_EVENT_TIME = Long.MIN_VALUE;

    /** An end without an event time ({@link #NO_EVENT_TIME}). */
    public EpochEnd(int subtask, int generation, long epoch, long inserts, boolean deterministic, boolean snapshot) {
        this(subtask, generation, epoch, inserts, deterministic, snapshot, NO_EVENT_TIME);
    }
}
