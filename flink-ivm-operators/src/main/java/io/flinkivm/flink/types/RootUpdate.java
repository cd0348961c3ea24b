package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * A root view's delta for one root tuple, sent across the border to the sink, which adds it to the
 * tuple's payload: the tuple crosses the border when its first delta arrives. It comes from a tree
 * operator (the sum of a batch's deltas of that root tuple; for a root view with an empty schema, one
 * tree subtask's sum of an epoch's deltas, a partial aggregate) or, for a tree without state below its
 * root, from the ingest (an atom's delta). {@code cell}, when not null, is the key of the sink cell it
 * goes to (HyperCube partitioning); otherwise the sink's key is derived from the tuple.
 */
@Internal
public final class RootUpdate<T> implements Serializable {
    private static final long serialVersionUID = 3L;

    private final long epoch;
    private final int tree;
    private final Tuple tuple;
    private final T payload;
    private final Tuple cell;

    public RootUpdate(long epoch, int tree, Tuple tuple, T payload, Tuple cell) {
        this.epoch = epoch;
        this.tree = tree;
        this.tuple = tuple;
        this.payload = payload;
        this.cell = cell;
    }

    /** Delta {@code payload} of tree {@code tree}'s root view at {@code tuple}. */
    public static <T> RootUpdate<T> of(long epoch, int tree, Tuple tuple, T payload) {
        return new RootUpdate<>(epoch, tree, tuple, payload, null);
    }

    public long epoch() {
        return epoch;
    }

    public int tree() {
        return tree;
    }

    public Tuple tuple() {
        return tuple;
    }

    /** The delta to add. */
    public T payload() {
        return payload;
    }

    /** The key of the sink cell it goes to, or null. */
    public Tuple cell() {
        return cell;
    }

    /** The same update sent to the cell with key {@code cell}. */
    public RootUpdate<T> toCell(Tuple cell) {
        return new RootUpdate<>(epoch, tree, tuple, payload, cell);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RootUpdate<?> r
                && r.epoch == epoch
                && r.tree == tree
                && Objects.equals(r.tuple, tuple)
                && Objects.equals(r.payload, payload)
                && Objects.equals(r.cell, cell);
    }

    @Override
    public int hashCode() {
        return Objects.hash(epoch, tree, tuple, payload, cell);
    }

    @Override
    public String toString() {
        return "RootUpdate[tree " + tree + " " + tuple + " += " + payload + ", epoch " + epoch
                + (cell == null ? "" : ", cell " + cell) + "]";
    }
}
