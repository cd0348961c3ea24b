package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.util.Objects;

/**
 * One atom's delta, from the ingest operator to the operator that holds the atom's state: add
 * {@code payload} at {@code key}. For a view tree the key is the atom's tuple projected onto its
 * route (as {@link io.flinkivm.core.query.AtomRouter} keys it); for the fallback it is the atom's
 * matched tuple. {@code epoch} is the epoch of the insert ({@code runtime.Epochs}), {@code insert} where it
 * came from ({@code runtime.Epochs.insertId}), and {@code partition}, when not null, the key of the cell the
 * delta is sent to (HyperCube partitioning); otherwise the receiver's key is derived from the key.
 */
public final class Delta<T> implements Serializable {
    private static final long serialVersionUID = 2L;

    private final long epoch;
    private final int atom;
    private final Tuple key;
    private final T payload;
    private final long insert;
    private final Tuple partition;

    public Delta(long epoch, int atom, Tuple key, T payload, long insert, Tuple partition) {
        this.epoch = epoch;
        this.atom = atom;
        this.key = key;
        this.payload = payload;
        this.insert = insert;
        this.partition = partition;
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
                && Objects.equals(d.partition, partition);
    }

    @Override
    public int hashCode() {
        return Objects.hash(epoch, atom, key, payload, insert, partition);
    }

    @Override
    public String toString() {
        return "Delta[atom " + atom + " " + key + " += " + payload + ", epoch " + epoch
                + (partition == null ? "" : ", cell " + partition) + "]";
    }
}
