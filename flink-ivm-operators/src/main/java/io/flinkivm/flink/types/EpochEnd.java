package io.flinkivm.flink.types;

import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;

/**
 * An ingest subtask closed an epoch ({@code runtime.Epochs}): its epochs up to {@code epoch} hold its first
 * {@code inserts} inserts. Broadcast from every ingest subtask to every sink subtask, ahead of the
 * watermark that closes the epoch, so that a sink knows the cut of each snapshot: per ingest
 * subtask, how many of its inserts the snapshot reflects.
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
 */
@PublicEvolving
public record EpochEnd(int subtask, int generation, long epoch, long inserts, boolean deterministic, boolean snapshot)
        implements Serializable {}
