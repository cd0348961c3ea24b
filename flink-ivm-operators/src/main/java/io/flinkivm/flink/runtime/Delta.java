package io.flinkivm.flink.runtime;

import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.util.Objects;

/**
 * A delta travelling between view-tree operators: add {@code payload} to child {@code slot} of the
 * view at {@code key}. {@code target} is a stateful node id, or {@code -(tree + 1)} for a root view.
 */
public final class Delta<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int target;
    private final int slot;
    private final Tuple key;
    private final T payload;

    public Delta(int target, int slot, Tuple key, T payload) {
        this.target = target;
        this.slot = slot;
        this.key = key;
        this.payload = payload;
    }

    /** The target of the fallback plan's single operator. */
    public static final int FALLBACK_TARGET = Integer.MIN_VALUE;

    /** The target code of tree {@code tree}'s root view. */
    public static int rootTarget(int tree) {
        return -(tree + 1);
    }

    public int target() {
        return target;
    }

    public int slot() {
        return slot;
    }

    public Tuple key() {
        return key;
    }

    public T payload() {
        return payload;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Delta<?> d && d.target == target && d.slot == slot && d.key.equals(key)
                && d.payload.equals(payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(target, slot, key, payload);
    }

    @Override
    public String toString() {
        return "Delta[" + target + "/" + slot + " " + key + " += " + payload + "]";
    }
}
