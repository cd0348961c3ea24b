package io.flinkivm.flink.runtime;

import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.util.Objects;

/**
 * A root view's change for one root tuple, sent across the border to the sink. Usually the new
 * payload, with {@code isNew} true exactly once per root tuple, when its payload first becomes
 * non-zero. For a root view with an empty schema (an aggregate) it is instead a partial aggregate
 * ({@code isPartial}): one tree subtask's sum of the epoch's deltas, which the sink adds up; and for
 * a tree without state below its root, an atom's delta from the ingest ({@code isPartial} too), which
 * the sink adds to the root tuple's payload.
 * {@code cell}, when not null, is the key of the sink cell it goes to (HyperCube partitioning);
 * otherwise the sink's key is derived from the tuple.
 */
public final class RootUpdate<T> implements Serializable {
    private static final long serialVersionUID = 2L;

    private final long epoch;
    private final int tree;
    private final Tuple tuple;
    private final T payload;
    private final boolean isNew;
    private final boolean isPartial;
    private final Tuple cell;

    public RootUpdate(long epoch, int tree, Tuple tuple, T payload, boolean isNew, boolean isPartial, Tuple cell) {
        this.epoch = epoch;
        this.tree = tree;
        this.tuple = tuple;
        this.payload = payload;
        this.isNew = isNew;
        this.isPartial = isPartial;
        this.cell = cell;
    }

    /** A root view's new payload for {@code tuple}. */
    public static <T> RootUpdate<T> of(long epoch, int tree, Tuple tuple, T payload, boolean isNew) {
        return new RootUpdate<>(epoch, tree, tuple, payload, isNew, false, null);
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

    public T payload() {
        return payload;
    }

    public boolean isNew() {
        return isNew;
    }

    /** Whether the payload is a partial aggregate to add (a root view with an empty schema). */
    public boolean isPartial() {
        return isPartial;
    }

    /** The key of the sink cell it goes to, or null. */
    public Tuple cell() {
        return cell;
    }

    /** The same update sent to the cell with key {@code cell}. */
    public RootUpdate<T> toCell(Tuple cell) {
        return new RootUpdate<>(epoch, tree, tuple, payload, isNew, isPartial, cell);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RootUpdate<?> r && r.epoch == epoch && r.tree == tree && r.isNew == isNew
                && r.isPartial == isPartial && Objects.equals(r.tuple, tuple) && Objects.equals(r.payload, payload)
                && Objects.equals(r.cell, cell);
    }

    @Override
    public int hashCode() {
        return Objects.hash(epoch, tree, tuple, payload, isNew, isPartial, cell);
    }

    @Override
    public String toString() {
        return "RootUpdate[tree " + tree + " " + tuple + (isPartial ? " += " : " = ") + payload + (isNew ? ", new" : "")
                + ", epoch " + epoch + (cell == null ? "" : ", cell " + cell) + "]";
    }
}
