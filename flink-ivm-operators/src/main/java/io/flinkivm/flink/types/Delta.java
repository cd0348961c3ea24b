package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * One atom's delta, from the ingest operator to the operator that holds the atom's state: add
 * {@code payload} at {@code key}. For a view tree the key is the atom's tuple projected onto its
 * route (as {@link io.flinkivm.core.query.AtomRouter} keys it); for the fallback it is the atom's
 * matched tuple. {@code epoch} is the epoch of the insert ({@code runtime.Epochs}), {@code insert} where it
 * came from ({@code runtime.Epochs.insertId}), and {@code partition}, when not null, the key of the cell the
 * delta is sent to (HyperCube partitioning); otherwise the receiver's key is derived from the key.
 *
 * <p>A <em>checked delete</em> ({@link #isDelete()}, the fallback's, which checks deletes against its own
 * relations) takes {@code payload} away from the key's tuple, once the receiver has checked that the
 * tuple holds it. One delta of each such delete {@linkplain #reportAs() reports} a rejection as a dead
 * letter, with the change's origin; the others of the same change are rejected quietly.
 */
@Internal
public final class Delta<T> implements Serializable {
    private static final long serialVersionUID = 2L;

    private final long epoch;
    private final int atom;
    private final Tuple key;
    private final T payload;
    private final long insert;
    private final Tuple partition;
    private final boolean delete;
    private final String reportAs;
    private final Tuple row;

    public Delta(long epoch, int atom, Tuple key, T payload, long insert, Tuple partition) {
        this(epoch, atom, key, payload, insert, partition, false, null, null);
    }

    /**
     * @param delete whether this is a checked delete of {@code payload}
     * @param reportAs the origin of the change, for the one delta of a checked delete that reports a
     *     rejection; null for the others
     * @param row the row of the change, which a rejection names, with {@code reportAs}; else null
     */
    public Delta(
            long epoch,
            int atom,
            Tuple key,
            T payload,
            long insert,
            Tuple partition,
            boolean delete,
            String reportAs,
            Tuple row) {
        this.epoch = epoch;
        this.atom = atom;
        this.key = key;
        this.payload = payload;
        this.insert = insert;
        this.partition = partition;
        this.delete = delete;
        this.reportAs = reportAs;
        this.row = row;
    }

    /** The row of a checked delete whose rejection this delta reports, or null. */
    public Tuple row() {
        return row;
    }

    /** Whether this is a checked delete: {@code payload} is taken away after a check. */
    public boolean isDelete() {
        return delete;
    }

    /** The origin of a checked delete whose rejection this delta reports, or null. */
    public String reportAs() {
        return reportAs;
    }

    /** This delta with payload {@code p}. */
    public Delta<T> withPayload(T p) {
        return new Delta<>(epoch, atom, key, p, insert, partition, delete, reportAs, row);
    }

    public long epoch() {
        return epoch;
    }

    public int atom() {
        return atom;
    }

    public Tuple key() {
        return key;
    }

    public T payload() {
        return payload;
    }

    /** The insert this delta belongs to, as {@code runtime.Epochs.insertId}. */
    public long insert() {
        return insert;
    }

    /** The key of the cell it is sent to, or null. */
    public Tuple partition() {
        return partition;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Delta<?> d
                && d.epoch == epoch
                && d.atom == atom
                && d.insert == insert
                && Objects.equals(d.key, key)
                && Objects.equals(d.payload, payload)
                && Objects.equals(d.partition, partition)
                && d.delete == delete
                && Objects.equals(d.reportAs, reportAs)
                && Objects.equals(d.row, row);
    }

    @Override
    public int hashCode() {
        return Objects.hash(epoch, atom, key, payload, insert, partition, delete, reportAs, row);
    }

    @Override
    public String toString() {
        return "Delta[atom " + atom + " " + key + (delete ? " -= " : " += ") + payload + ", epoch " + epoch
                + (partition == null ? "" : ", cell " + partition) + "]";
    }
}
