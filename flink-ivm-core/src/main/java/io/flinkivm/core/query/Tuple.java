package io.flinkivm.core.query;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;

/**
 * An immutable tuple of values. Values are non-null and of type {@link String}, {@link Long},
 * {@link Integer}, {@link Double} or {@link Boolean}; their hash codes, and hence the tuple's, are
 * deterministic across JVMs, so tuples can be used as Flink keys.
 */
public final class Tuple implements Serializable, Comparable<Tuple> {
    private static final long serialVersionUID = 1L;

    /** The tuple of arity 0. */
    public static final Tuple EMPTY = new Tuple(new Object[0]);

    private final Object[] values;
    private transient int hash;

    private Tuple(Object[] values) {
        this.values = values;
    }

    /** A tuple of the given values (copied and checked). */
    public static Tuple of(Object... values) {
        Object[] copy = values.clone();
        for (int i = 0; i < copy.length; i++) {
            checkValue(copy[i], i);
        }
        return copy.length == 0 ? EMPTY : new Tuple(copy);
    }

    /** Wraps an array without copying or checking: the caller gives it up and guarantees valid values. */
    public static Tuple wrap(Object[] values) {
        return values.length == 0 ? EMPTY : new Tuple(values);
    }

    /** Checks that {@code value} may be stored in a tuple. */
    public static void checkValue(Object value, int position) {
        if (value == null) {
            throw new IllegalArgumentException("tuple value at position " + position + " is null");
        }
        if (!(value instanceof String || value instanceof Long || value instanceof Integer
                || value instanceof Double || value instanceof Boolean)) {
            throw new IllegalArgumentException("tuple value at position " + position + " has type "
                    + value.getClass().getName() + "; supported: String, Long, Integer, Double, Boolean");
        }
    }

    public int arity() {
        return values.length;
    }

    public Object get(int i) {
        return values[i];
    }

    /** The tuple of the values at {@code positions}, in that order. */
    public Tuple project(int[] positions) {
        if (positions.length == 0) {
            return EMPTY;
        }
        Object[] out = new Object[positions.length];
        for (int i = 0; i < positions.length; i++) {
            out[i] = values[positions[i]];
        }
        return new Tuple(out);
    }

    /** A copy of the values. */
    public Object[] toArray() {
        return values.clone();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Tuple)) {
            return false;
        }
        Tuple other = (Tuple) o;
        return hashCode() == other.hashCode() && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = 1;
            for (Object v : values) {
                h = 31 * h + v.hashCode();
            }
            if (h == 0) {
                h = 1;
            }
            hash = h;
        }
        return h;
    }

    /** Orders by arity, then value by value (by type name first when types differ). */
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public int compareTo(Tuple o) {
        if (values.length != o.values.length) {
            return Integer.compare(values.length, o.values.length);
        }
        for (int i = 0; i < values.length; i++) {
            Object a = values[i];
            Object b = o.values[i];
            int c;
            if (a.getClass() == b.getClass()) {
                c = ((Comparable) a).compareTo(b);
            } else {
                c = a.getClass().getName().compareTo(b.getClass().getName());
            }
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(Objects.toString(values[i]));
        }
        return sb.append(')').toString();
    }
}
