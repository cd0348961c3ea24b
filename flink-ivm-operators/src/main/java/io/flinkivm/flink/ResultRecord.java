package io.flinkivm.flink;

import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.util.Objects;

/**
 * An element of flink-ivm's output stream. A snapshot is a sequence of rows (one per result tuple,
 * with its payload) followed by one end marker, all tagged with the snapshot id and the number of
 * inserts the snapshot reflects. A sink operator running at parallelism p emits one part (rows and
 * an end marker) per subtask; the parts of one snapshot share its id.
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

    private ResultRecord(long snapshotId, long insertCount, boolean end, Tuple tuple, T payload, long rows,
            boolean prefixExact) {
        this.snapshotId = snapshotId;
        this.insertCount = insertCount;
        this.end = end;
        this.tuple = tuple;
        this.payload = payload;
        this.rows = rows;
        this.prefixExact = prefixExact;
    }

    /** One result tuple of a snapshot. */
    public static <T> ResultRecord<T> row(long snapshotId, long insertCount, Tuple tuple, T payload,
            boolean prefixExact) {
        return new ResultRecord<>(snapshotId, insertCount, false, tuple, payload, 0, prefixExact);
    }

    /** The end of one part of a snapshot, with the number of rows in that part. */
    public static <T> ResultRecord<T> end(long snapshotId, long insertCount, long rows, boolean prefixExact) {
        return new ResultRecord<>(snapshotId, insertCount, true, null, null, rows, prefixExact);
    }

    /** Internal: rebuilds a record from its fields (used by the serializer). */
    public static <T> ResultRecord<T> of(long snapshotId, long insertCount, boolean end, Tuple tuple, T payload,
            long rows, boolean prefixExact) {
        return new ResultRecord<>(snapshotId, insertCount, end, tuple, payload, rows, prefixExact);
    }

    public long snapshotId() {
        return snapshotId;
    }

    /** Number of inserts (counted by the sequencer) the snapshot reflects. */
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
     * Whether the snapshot is exactly the result after the first {@link #insertCount()} inserts
     * (true for snapshots triggered by count, control record or end of input; false for
     * processing-time snapshots, which are recent but not prefix-exact).
     */
    public boolean isPrefixExact() {
        return prefixExact;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResultRecord<?> r && r.snapshotId == snapshotId && r.insertCount == insertCount
                && r.end == end && Objects.equals(r.tuple, tuple) && Objects.equals(r.payload, payload)
                && r.rows == rows && r.prefixExact == prefixExact;
    }

    @Override
    public int hashCode() {
        return Objects.hash(snapshotId, insertCount, end, tuple, payload, rows, prefixExact);
    }

    @Override
    public String toString() {
        return end ? "End[snapshot " + snapshotId + ", " + rows + " rows after " + insertCount + " inserts]"
                : "Row[snapshot " + snapshotId + ": " + tuple + " ↦ " + payload + "]";
    }
}
