package io.flinkivm.flink.types;

import java.io.Serializable;
import org.apache.flink.annotation.Internal;

/**
 * An ingest subtask's operator state: where it is in its input and its epochs. Union state, so a
 * restore at another parallelism sees every old subtask's position.
 *
 * @param subtask the subtask that wrote it
 * @param parallelism the ingest's parallelism then
 * @param generation increases with every rescale, which tells the sinks to start a new cut
 * @param epoch the current epoch
 * @param inEpoch inserts in the current epoch
 * @param count inserts so far
 * @param position records read so far (snapshot requests included)
 * @param sinceSnapshot inserts since the last epoch that asked for a snapshot
 */
@Internal
public record IngestPosition(
        int subtask,
        int parallelism,
        int generation,
        long epoch,
        long inEpoch,
        long count,
        long position,
        long sinceSnapshot)
        implements Serializable {

    /**
     * A position in the text format of the state before this record ({@code "subtask,parallelism,
     * generation,epoch,inEpoch,count,position,sinceSnapshot"}).
     *
     * @throws IllegalStateException if {@code text} is not eight integers
     */
    public static IngestPosition fromText(String text) {
        String[] f = text.split(",");
        if (f.length != 8) {
            throw new IllegalStateException("corrupt ingest state (expected eight integers): " + text);
        }
        try {
            return new IngestPosition(
                    Integer.parseInt(f[0]),
                    Integer.parseInt(f[1]),
                    Integer.parseInt(f[2]),
                    Long.parseLong(f[3]),
                    Long.parseLong(f[4]),
                    Long.parseLong(f[5]),
                    Long.parseLong(f[6]),
                    Long.parseLong(f[7]));
        } catch (NumberFormatException e) {
            throw new IllegalStateException("corrupt ingest state (expected eight integers): " + text, e);
        }
    }
}
