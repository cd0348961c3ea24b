package io.flinkivm.core.semiring;

import java.io.Serializable;
import java.util.Arrays;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A payload of a {@link ProductSemiring} or a {@link ProductRing}: one {@code long} per component, the
 * first the count. A {@link ProductRing}'s MIN and MAX components are {@link ValueMultiset}s
 * ({@link #multiset}); their {@code long} is the multiset's least (greatest) value, or the component's
 * zero when it is empty, so that {@link #get} reads every aggregate the same way. Immutable, with value
 * semantics.
 */
@PublicEvolving
public final class Product implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long[] values;
    /** Per component, its multiset (a ring's MIN or MAX), else null; null if there is none at all. */
    private final ValueMultiset[] multisets;

    private transient int hash;

    private Product(long[] values, ValueMultiset[] multisets) {
        this.values = values;
        this.multisets = multisets;
    }

    /** A product of the given component values (copied). */
    public static Product of(long... values) {
        return new Product(values.clone(), null);
    }

    /** Wraps an array the caller gives up. */
    static Product wrap(long[] values) {
        return new Product(values, null);
    }

    /** Wraps arrays the caller gives up: values, and multisets (null, or null where a component has none). */
    static Product wrap(long[] values, ValueMultiset[] multisets) {
        return new Product(values, multisets);
    }

    /** The number of components. */
    public int arity() {
        return values.length;
    }

    /** Component {@code i}'s value (of a multiset: its least or greatest value, see the class comment). */
    public long get(int i) {
        return values[i];
    }

    /** Component {@code i}'s multiset, or null if it is not a multiset. */
    public ValueMultiset multiset(int i) {
        return multisets == null ? null : multisets[i];
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
        return o instanceof Product p && Arrays.equals(values, p.values) && Arrays.equals(multisets, p.multisets);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = 31 * Arrays.hashCode(values) + Arrays.hashCode(multisets);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        if (multisets == null) {
            return Arrays.toString(values);
        }
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(multisets[i] == null ? Long.toString(values[i]) : multisets[i]);
        }
        return sb.append(']').toString();
    }
}
