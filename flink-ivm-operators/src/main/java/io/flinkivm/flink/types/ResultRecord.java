package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.types.RowKind;

/**
 * An element of flink-ivm's output stream. At each trigger a sink subtask emits rows, then one end
 * marker, all tagged with the trigger's id: the number of inserts it reflects. In
 * {@code OutputMode.SNAPSHOT} the rows are the whole result (one per result tuple, with its payload,
 * {@link Kind#SNAPSHOT}); in {@code OutputMode.CHANGELOG} they are the result tuples whose payload
 * changed since the previous trigger ({@link Kind#INSERT}, {@link Kind#UPDATE_AFTER}, optionally
 * preceded by {@link Kind#UPDATE_BEFORE} with the old payload; {@link Kind#DELETE} only where a plan
 * can delete). A sink operator running at parallelism p emits one part (rows and an end marker) per
 * subtask; each result tuple belongs to exactly one part. An end marker also carries the trigger's
 * cut: for each ingest subtask, how many of its inserts (in the order it read them) it reflects.
 *
 * @param <T> the payload type
 */
@PublicEvolving
public final class ResultRecord<T> implements Serializable {
    private static final long serialVersionUID = 2L;

    /** What a row says. */
    public enum Kind {
        /** A row of a snapshot: the tuple is in the result with this payload. */
        SNAPSHOT("+S"),
        /** The tuple entered the result with this payload ({@code +I}). */
        INSERT("+I"),
        /** The tuple's payload before an update ({@code -U}, followed by its {@link #UPDATE_AFTER}). */
        UPDATE_BEFORE("-U"),
        /** The tuple's new payload ({@code +U}). */
        UPDATE_AFTER("+U"),
        /** The tuple left the result; the payload is its last one ({@code -D}). */
        DELETE("-D");

        private final String shortString;

        Kind(String shortString) {
            this.shortString = shortString;
        }

        /** {@code +I}, {@code -U}, {@code +U}, {@code -D}, as Flink prints row kinds (and {@code +S} for a snapshot row). */
        public String shortString() {
            return shortString;
        }

        /** Whether this is half of an update ({@code -U} or {@code +U}): the tuple stays in the result. */
        public boolean isUpdate() {
            return this == UPDATE_BEFORE || this == UPDATE_AFTER;
        }

        /** Flink's row kind: a snapshot row is an insert. */
        public RowKind rowKind() {
            return switch (this) {
                case SNAPSHOT, INSERT -> RowKind.INSERT;
                case UPDATE_BEFORE -> RowKind.UPDATE_BEFORE;
                case UPDATE_AFTER -> RowKind.UPDATE_AFTER;
                case DELETE -> RowKind.DELETE;
            };
        }
    }

    private final long snapshotId;
    private final long insertCount;
    private final boolean end;
    private final Tuple tuple;
    private final T payload;
    private final long rows;
    private final boolean prefixExact;
    private final long[] cut;
    private final Kind kind;

    private ResultRecord(
            long snapshotId,
            long insertCount,
            boolean end,
            Tuple tuple,
            T payload,
            long rows,
            boolean prefixExact,
            long[] cut,
            Kind kind) {
        this.snapshotId = snapshotId;
        this.insertCount = insertCount;
        this.end = end;
        this.tuple = tuple;
        this.payload = payload;
        this.rows = rows;
        this.prefixExact = prefixExact;
        this.cut = cut;
        this.kind = kind;
    }

    /** One result tuple of a snapshot. */
    public static <T> ResultRecord<T> row(
            long snapshotId, long insertCount, Tuple tuple, T payload, boolean prefixExact) {
        return new ResultRecord<>(snapshotId, insertCount, false, tuple, payload, 0, prefixExact, null, Kind.SNAPSHOT);
    }

    /** One change of a changelog trigger. */
    public static <T> ResultRecord<T> change(
            long triggerId, long insertCount, Kind kind, Tuple tuple, T payload, boolean prefixExact) {
        return new ResultRecord<>(
                triggerId,
                insertCount,
                false,
                tuple,
                payload,
                0,
                prefixExact,
                null,
                Objects.requireNonNull(kind, "kind"));
    }

    /** The end of one part of a snapshot, with the number of rows in that part and no cut. */
    public static <T> ResultRecord<T> end(long snapshotId, long insertCount, long rows, boolean prefixExact) {
        return end(snapshotId, insertCount, rows, prefixExact, new long[0]);
    }

    /** The end of one part of a snapshot, with the number of rows in that part and the snapshot's cut. */
    public static <T> ResultRecord<T> end(
            long snapshotId, long insertCount, long rows, boolean prefixExact, long[] cut) {
        return new ResultRecord<>(snapshotId, insertCount, true, null, null, rows, prefixExact, cut.clone(), null);
    }

    /**
     * Internal: rebuilds a record from its fields (used by the serializer); {@code cut} is null and
     * {@code kind} not null for a row.
     */
    public static <T> ResultRecord<T> of(
            long snapshotId,
            long insertCount,
            boolean end,
            Tuple tuple,
            T payload,
            long rows,
            boolean prefixExact,
            long[] cut,
            Kind kind) {
        return new ResultRecord<>(
                snapshotId,
                insertCount,
                end,
                tuple,
                payload,
                rows,
                prefixExact,
                end ? (cut == null ? new long[0] : cut) : null,
                end ? null : kind);
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

    /** What a row says (null for an end marker). */
    public Kind kind() {
        return kind;
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
        return o instanceof ResultRecord<?> r
                && r.snapshotId == snapshotId
                && r.insertCount == insertCount
                && r.end == end
                && Objects.equals(r.tuple, tuple)
                && Objects.equals(r.payload, payload)
                && r.rows == rows
                && r.prefixExact == prefixExact
                && java.util.Arrays.equals(r.cut, cut)
                && r.kind == kind;
    }

    @Override
    public int hashCode() {
        return Objects.hash(snapshotId, insertCount, end, tuple, payload, rows, prefixExact, kind)
                + 31 * java.util.Arrays.hashCode(cut);
    }

    @Override
    public String toString() {
        return end
                ? "End[snapshot " + snapshotId + ", " + rows + " rows after " + insertCount + " inserts"
                        + (cut.length > 1 ? " " + java.util.Arrays.toString(cut) : "") + "]"
                : kind == Kind.SNAPSHOT
                        ? "Row[snapshot " + snapshotId + ": " + tuple + " ↦ " + payload + "]"
                        : "Change[trigger " + snapshotId + ": " + kind.shortString() + " " + tuple + " ↦ " + payload
                                + "]";
    }
}
