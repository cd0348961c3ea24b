package io.flinkivm.flink.runtime;

import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.util.Objects;

/**
 * A root view's new payload for one root tuple, sent across the border to the sink. {@code isNew}
 * is true exactly once per root tuple: when its payload first becomes non-zero.
 */
public final class RootUpdate<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int tree;
    private final Tuple tuple;
    private final T payload;
    private final boolean isNew;

    public RootUpdate(int tree, Tuple tuple, T payload, boolean isNew) {
        this.tree = tree;
        this.tuple = tuple;
        this.payload = payload;
        this.isNew = isNew;
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

    @Override
    public boolean equals(Object o) {
        return o instanceof RootUpdate<?> r && r.tree == tree && r.isNew == isNew && r.tuple.equals(tuple)
                && r.payload.equals(payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tree, tuple, payload, isNew);
    }

    @Override
    public String toString() {
        return "RootUpdate[tree " + tree + " " + tuple + " = " + payload + (isNew ? ", new" : "") + "]";
    }
}
