package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.util.Objects;

/**
 * An element of flink-ivm's input stream: an insert of {@code tuple} with {@code payload} into the
 * physical relation {@code relation}, or a control record that asks for a snapshot of the result
 * after all inserts before it.
 *
 * @param <T> the payload type
 */
public final class InputRecord<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final boolean snapshotRequest;
    private final String relation;
    private final Tuple tuple;
    private final T payload;
    private final String origin;

    private InputRecord(boolean snapshotRequest, String relation, Tuple tuple, T payload, String origin) {
        this.snapshotRequest = snapshotRequest;
        this.relation = relation;
        this.tuple = tuple;
        this.payload = payload;
        this.origin = origin;
    }

    /** An insert. {@code origin} (e.g. {@code "line 17"} or {@code "orders-0@42"}) may be null. */
    public static <T> InputRecord<T> insert(String relation, Tuple tuple, T payload, String origin) {
        return new InputRecord<>(
                false,
                Objects.requireNonNull(relation, "relation"),
                Objects.requireNonNull(tuple, "tuple"),
                Objects.requireNonNull(payload, "payload"),
                origin);
    }

    /** An insert without a recorded origin. */
    public static <T> InputRecord<T> insert(String relation, Tuple tuple, T payload) {
        return insert(relation, tuple, payload, null);
    }

    /** A control record: emit a snapshot of the result after every insert before it. */
    public static <T> InputRecord<T> snapshotRequest() {
        return new InputRecord<>(true, null, null, null, null);
    }

    /** Internal: rebuilds a record from its fields (used by the serializer). */
    public static <T> InputRecord<T> of(
            boolean snapshotRequest, String relation, Tuple tuple, T payload, String origin) {
        return new InputRecord<>(snapshotRequest, relation, tuple, payload, origin);
    }

    public boolean isSnapshotRequest() {
        return snapshotRequest;
    }

    public String relation() {
        return relation;
    }

    public Tuple tuple() {
        return tuple;
    }

    public T payload() {
        return payload;
    }

    /** Where the record came from, or null. */
    public String origin() {
        return origin;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InputRecord<?> r
                && r.snapshotRequest == snapshotRequest
                && Objects.equals(r.relation, relation)
                && Objects.equals(r.tuple, tuple)
                && Objects.equals(r.payload, payload)
                && Objects.equals(r.origin, origin);
    }

    @Override
    public int hashCode() {
        return Objects.hash(snapshotRequest, relation, tuple, payload, origin);
    }

    @Override
    public String toString() {
        return snapshotRequest
                ? "SnapshotRequest"
                : "Insert[" + relation + tuple + " ↦ " + payload + (origin == null ? "" : " from " + origin) + "]";
    }
}
