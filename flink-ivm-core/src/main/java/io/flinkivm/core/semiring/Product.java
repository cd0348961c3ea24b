package io.flinkivm.core.semiring;

import java.io.Serializable;
import java.util.Arrays;

/**
 * A payload of a {@link ProductSemiring}: one {@code long} per component, the first the count.
 * Immutable, with value semantics.
 */
public final class Product implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long[] values;
    private transient int hash;

    private Product(long[] values) {
        this.values = values;
    }

    /** A product of the given component values (copied). */
    public static Product of(long... values) {
        return new Product(values.clone());
    }

    /** Wraps an array the caller gives up. */
    static Product wrap(long[] values) {
        return new Product(values);
    }

    /** The number of components. */
    public int arity() {
        return values.length;
    }

    /** Component {@code i}'s value. */
    public long get(int i) {
        return values[i];
    }

    /** The count: the first component. */
    public long count() {
        return values[0];
    }

    /** The component values (a copy). */
    public long[] toArray() {
        return values.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Product p && Arrays.equals(values, p.values);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = Arrays.hashCode(values);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return Arrays.toString(values);
    }
}
