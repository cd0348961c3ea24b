package io.flinkivm.core.semiring;

import java.io.Serializable;
import java.util.Arrays;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A payload of a {@link ProductSemiring} or a {@link ProductRing}: one {@code long} per component, the
 * first the count. A {@link ChainComponent} over a chain of objects (strings, ...) keeps its value in
 * {@link #object} and a tag in its long ({@link Chain}). A {@link ProductRing}'s MIN and MAX components
 * are multisets ({@link #multiset}, {@link #objectMultiset}); their {@code long} (and object) is the
 * multiset's least (greatest) element, or the component's zero when it is empty, so that {@link #get}
 * and {@link #object} read every aggregate the same way. Immutable, with value semantics.
 */
@PublicEvolving
public final class Product implements Serializable {
    private static final long serialVersionUID = 1L;

    private final long[] values;
    /** Per component, its multiset (a ring's MIN or MAX), else null; null if there is none at all. */
    private final Object[] multisets;
    /** Per component, its value object (a chain of objects), else null; null if there is none at all. */
    private final Object[] objects;

    private transient int hash;

    private Product(long[] values, Object[] multisets, Object[] objects) {
        this.values = values;
        this.multisets = multisets;
        this.objects = objects;
    }

    /** A product of the given component values (copied). */
    public static Product of(long... values) {
        return new Product(values.clone(), null, null);
    }

    /** Wraps an array the caller gives up. */
    static Product wrap(long[] values) {
        return new Product(values, null, null);
    }

    /**
     * Wraps arrays the caller gives up: values, multisets ({@link ValueMultiset}s or {@link
     * ObjectMultiset}s; null, or null where a component has none) and objects (null, or null where a
     * component has none).
     */
    static Product wrap(long[] values, Object[] multisets, Object[] objects) {
        return new Product(values, multisets, objects);
    }

    /** The number of components. */
    public int arity() {
        return values.length;
    }

    /** Component {@code i}'s value (of a multiset: its least or greatest value, see the class comment). */
    public long get(int i) {
        return values[i];
    }

    /** Component {@code i}'s value object (a chain of objects, where its long is {@link Chain#VALUE}), else null. */
    public Object object(int i) {
        return objects == null ? null : objects[i];
    }

    /** Component {@code i}'s multiset of longs, or null if it is not one. */
    public ValueMultiset multiset(int i) {
        return multisets != null && multisets[i] instanceof ValueMultiset m ? m : null;
    }

    /** Component {@code i}'s multiset of a chain of objects, or null if it is not one. */
    public ObjectMultiset objectMultiset(int i) {
        return multisets != null && multisets[i] instanceof ObjectMultiset m ? m : null;
    }

    /** The count: the first component. */
    public long count() {
        return values[0];
    }

    /** The component values (a copy). */
    public long[] toArray() {
        return values.clone();
    }

    /** The component objects (a copy; null where a component has none). */
    public Object[] objects() {
        return objects == null ? new Object[values.length] : objects.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Product p
                && Arrays.equals(values, p.values)
                && Arrays.equals(multisets, p.multisets)
                && Arrays.equals(objects, p.objects);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = 31 * (31 * Arrays.hashCode(values) + Arrays.hashCode(multisets)) + Arrays.hashCode(objects);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        if (multisets == null && objects == null) {
            return Arrays.toString(values);
        }
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            Object shown = multisets != null && multisets[i] != null
                    ? multisets[i]
                    : objects != null && objects[i] != null ? objects[i] : (Object) values[i];
            sb.append(i == 0 ? "" : ", ").append(shown);
        }
        return sb.append(']').toString();
    }
}
