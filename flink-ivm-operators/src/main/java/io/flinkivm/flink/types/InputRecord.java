package io.flinkivm.flink.types;

import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * An element of flink-ivm's input stream: a change of {@code tuple} with {@code payload} in the
 * physical relation {@code relation}, or a control record that asks for a snapshot of the result
 * after all changes before it. A change is an insert, or, for a relation the plan reads as a changelog
 * ({@link io.flinkivm.core.plan.Inputs}), a delete or one half of an update ({@link ChangeKind}): a
 * delete and the old row of an update take {@code payload} away from the row, which must hold it.
 *
 * @param <T> the payload type
 */
@PublicEvolving
public final class InputRecord<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final boolean snapshotRequest;
    private final String relation;
    private final Tuple tuple;
    private final T payload;
    private final String origin;
    private final ChangeKind kind;
    private final boolean dropped;

    private InputRecord(
            boolean snapshotRequest, String relation, Tuple tuple, T payload, String origin, ChangeKind kind) {
        this(snapshotRequest, relation, tuple, payload, origin, kind, false);
    }

    private InputRecord(
            boolean snapshotRequest,
            String relation,
            Tuple tuple,
            T payload,
            String origin,
            ChangeKind kind,
            boolean dropped) {
        this.snapshotRequest = snapshotRequest;
        this.relation = relation;
        this.tuple = tuple;
        this.payload = payload;
        this.origin = origin;
        this.kind = Objects.requireNonNull(kind, "kind");
        this.dropped = dropped;
    }

    /**
     * A row that the query's filter of its table dropped (the SQL front end), as a change of kind {@code
     * kind}: no insert, but where the plan looks the relation's key up its key stage keeps a mark of it, so
     * that the rows that look it up are dropped at once instead of waiting for good. Other operators
     * pass it by.
     */
    public static <T> InputRecord<T> dropped(ChangeKind kind, String relation, Tuple tuple, T payload, String origin) {
        return new InputRecord<>(
                false,
                Objects.requireNonNull(relation, "relation"),
                Objects.requireNonNull(tuple, "tuple"),
                Objects.requireNonNull(payload, "payload"),
                origin,
                kind,
                true);
    }

    /** An insert. {@code origin} (e.g. {@code "line 17"} or {@code "orders-0@42"}) may be null. */
    public static <T> InputRecord<T> insert(String relation, Tuple tuple, T payload, String origin) {
        return change(ChangeKind.INSERT, relation, tuple, payload, origin);
    }

    /**
     * A change of kind {@code kind}: {@link ChangeKind#DELETE} and {@link ChangeKind#UPDATE_BEFORE} take
     * {@code payload} away from the row, the other two add it. {@code origin} may be null.
     */
    public static <T> InputRecord<T> change(ChangeKind kind, String relation, Tuple tuple, T payload, String origin) {
        return new InputRecord<>(
                false,
                Objects.requireNonNull(relation, "relation"),
                Objects.requireNonNull(tuple, "tuple"),
                Objects.requireNonNull(payload, "payload"),
                origin,
                kind);
    }

    /** A delete: takes {@code payload} away from {@code tuple} (the whole row when it is all the row holds). */
    public static <T> InputRecord<T> delete(String relation, Tuple tuple, T payload) {
        return change(ChangeKind.DELETE, relation, tuple, payload, null);
    }

    /**
     * An update as the two records of a changelog: {@code -U} takes {@code beforePayload} away from
     * {@code before}, then {@code +U} adds {@code afterPayload} to {@code after}. On Flink each half is
     * checked on its own, as Flink's changelog rows are: a {@code -U} of an absent row is a dead letter,
     * its {@code +U} still applies.
     */
    public static <T> List<InputRecord<T>> update(
            String relation, Tuple before, T beforePayload, Tuple after, T afterPayload) {
        return List.of(
                change(ChangeKind.UPDATE_BEFORE, relation, before, beforePayload, null),
                change(ChangeKind.UPDATE_AFTER, relation, after, afterPayload, null));
    }

    /** An insert without a recorded origin. */
    public static <T> InputRecord<T> insert(String relation, Tuple tuple, T payload) {
        return insert(relation, tuple, payload, null);
    }

    /** A control record: emit a snapshot of the result after every insert before it. */
    public static <T> InputRecord<T> snapshotRequest() {
        return new InputRecord<>(true, null, null, null, null, ChangeKind.INSERT);
    }

    /** Internal: rebuilds an insert (or a snapshot request) from its fields. */
    public static <T> InputRecord<T> of(
            boolean snapshotRequest, String relation, Tuple tuple, T payload, String origin) {
        return new InputRecord<>(snapshotRequest, relation, tuple, payload, origin, ChangeKind.INSERT);
    }

    /** Internal: rebuilds a record from its fields (used by the serializer). */
    public static <T> InputRecord<T> of(
            boolean snapshotRequest, String relation, Tuple tuple, T payload, String origin, ChangeKind kind) {
        return new InputRecord<>(snapshotRequest, relation, tuple, payload, origin, kind);
    }

    /** Internal: rebuilds a record from its fields (used by the serializer). */
    public static <T> InputRecord<T> of(
            boolean snapshotRequest,
            String relation,
            Tuple tuple,
            T payload,
            String origin,
            ChangeKind kind,
            boolean dropped) {
        return new InputRecord<>(snapshotRequest, relation, tuple, payload, origin, kind, dropped);
    }

    /** The same change with another payload and kind (as the row check passes a delete on: an insert of the inverse). */
    public InputRecord<T> with(ChangeKind kind, T payload) {
        return new InputRecord<>(snapshotRequest, relation, tuple, payload, origin, kind, dropped);
    }

    /** Whether this is a row that its table's filter dropped ({@link #dropped}): no insert. */
    public boolean isDropped() {
        return dropped;
    }

    /** The change's kind; {@link ChangeKind#INSERT} for inserts and snapshot requests. */
    public ChangeKind kind() {
        return kind;
    }

    /** Whether the change takes a payload away (a delete, or the old row of an update). */
    public boolean isRetraction() {
        return kind.isRetraction();
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
                && Objects.equals(r.origin, origin)
                && r.kind == kind
                && r.dropped == dropped;
    }

    @Override
    public int hashCode() {
        return Objects.hash(snapshotRequest, relation, tuple, payload, origin, kind) + (dropped ? 1 : 0);
    }

    @Override
    public String toString() {
        return snapshotRequest
                ? "SnapshotRequest"
                : (dropped ? "Dropped " : "") + (kind == ChangeKind.INSERT ? "Insert[" : kind.shortString() + "[")
                        + relation + tuple + " ↦ "
                        + payload + (origin == null ? "" : " from " + origin) + "]";
    }
}
