package io.flinkivm.flink;

import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.util.Objects;

/**
 * An element of flink-ivm's output stream. A snapshot is a sequence of rows (one per result tuple,
 * with its payload) followed by one end marker, all tagged with the snapshot id: the number of
 * inserts the snapshot reflects. A sink operator running at parallelism p emits one part (rows and
 * an end marker) per subtask; the parts of one snapshot share its id. An end marker also carries the
 * snapshot's cut: for each ingest subtask, how many of its inserts (in the order it read them) the
 * snapshot reflects.
 *
 * @param <T> the payload type
 */
public final class ResultRecord<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long snapshotId;
    private final long insertCount;
    private final boolean end;
    private final Tuple tuple;
    private final T payload;
    private final long rows;
    private final boolean prefixExact;
    private final long[] cut;

    private ResultRecord(long snapshotId, long insertCount, boolean end, Tuple tuple, T payload, long rows,
            boolean prefixExact, long[] cut) {
        this.snapshotId = snapshotId;
        this.insertCount = insertCount;
        this.end = end;
        this.tuple = tuple;
        this.payload = payload;
        this.rows = rows;
        this.prefixExact = prefixExact;
        this.cut = cut;
    }

    /** One result tuple of a snapshot. */
    public static <T> ResultRecord<T> row(long snapshotId, long insertCount, Tuple tuple, T payload,
            boolean prefixExact) {
        return new ResultRecord<>(snapshotId, insertCount, false, tuple, payload, 0, prefixExact, null);
    }

    /** The end of one part of a snapshot, with the number of rows in that part and no cut. */
    public static <T> ResultRecord<T> end(long snapshotId, long insertCount, long rows, boolean prefixExact) {
        return end(snapshotId, insertCount, rows, prefixExact, new long[0]);
    }

    /** The end of one part of a snapshot, with the number of rows in that part and the snapshot's cut. */
    public static <T> ResultRecord<T> end(long snapshotId, long insertCount, long rows, boolean prefixExact,
            long[] cut) {
        return new ResultRecord<>(snapshotId, insertCount, true, null, null, rows, prefixExact, cut.clone());
    }

    /** Internal: rebuilds a record from its fields (used by the serializer); {@code cut} is null for a row. */
    public static <T> ResultRecord<T> of(long snapshotId, long insertCount, boolean end, Tuple tuple, T payload,
            long rows, boolean prefixExact, long[] cut) {
        return new ResultRecord<>(snapshotId, insertCount, end, tuple, payload, rows, prefixExact,
                end ? (cut == null ? new long[0] : cut) : null);
    }

    public long snapshotId() {
        return snapshotId;
    }

    /** Number of inserts the snapshot reflects (its id). */
    public long insertCount() {
        return insertCount;
    }

    /** Whether this is an end marker rather than a row. */
    public boolean isEnd() {
        return end;
    }

    public Tuple tuple() {
        return tuple;
    }

    public T payload() {
        return payload;
    }

    /** For an end marker: rows in this part. */
    public long rows() {
        return rows;
    }

    /**
     * Whether the snapshot's cut follows from the input alone: every ingest subtask's epoch in it ended
     * after a number of inserts, on a control record or at the end of the input, so a replay after a
     * failure emits the same rows under the same id. False if an epoch of the cut ended on a
     * processing-time tick. Either way the snapshot is exactly the result over the inserts of its cut.
     */
    public boolean isPrefixExact() {
        return prefixExact;
    }

    /**
     * For an end marker: per ingest subtask (by index), how many of its inserts, in the order it read
     * them, the snapshot reflects; their sum is {@link #insertCount()}. Null for a row.
     */
    public long[] cut() {
        return cut == null ? null : cut.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResultRecord<?> r && r.snapshotId == snapshotId && r.insertCount == insertCount
                && r.end == end && Objects.equals(r.tuple, tuple) && Objects.equals(r.payload, payload)
                && r.rows == rows && r.prefixExact == prefixExact && java.util.Arrays.equals(r.cut, cut);
    }

    @Override
    public int hashCode() {
        return Objects.hash(snapshotId, insertCount, end, tuple, payload, rows, prefixExact)
                + 31 * java.util.Arrays.hashCode(cut);
    }

    @Override
    public String toString() {
        return end ? "End[snapshot " + snapshotId + ", " + rows + " rows after " + insertCount + " inserts"
                + (cut.length > 1 ? " " + java.util.Arrays.toString(cut) : "") + "]"
                : "Row[snapshot " + snapshotId + ": " + tuple + " ↦ " + payload + "]";
    }
}
