package io.flinkivm.core.query;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * An immutable tuple of values. Values are non-null and of type {@link String}, {@link Long},
 * {@link Integer}, {@link Double} or {@link Boolean}; their hash codes, and hence the tuple's, are
 * deterministic across JVMs, so tuples can be used as Flink keys.
 */
@PublicEvolving
public final class Tuple implements Serializable, Comparable<Tuple> {
    private static final long serialVersionUID = 2L;

    /** Up to this arity the values are fields of the tuple itself: one object, one cache line. */
    private static final int INLINE = 4;

    /** The tuple of arity 0. */
    public static final Tuple EMPTY = new Tuple(new Object[0]);

    private final int arity;
    private final Object v0;
    private final Object v1;
    private final Object v2;
    private final Object v3;
    /** All values when the arity exceeds {@link #INLINE}, else null. */
    private final Object[] rest;

    private transient int hash;

    private Tuple(Object[] values) {
        arity = values.length;
        if (arity > INLINE) {
            v0 = v1 = v2 = v3 = null;
            rest = values;
        } else {
            v0 = arity > 0 ? values[0] : null;
            v1 = arity > 1 ? values[1] : null;
            v2 = arity > 2 ? values[2] : null;
            v3 = arity > 3 ? values[3] : null;
            rest = null;
        }
    }

    private Tuple(int arity, Object v0, Object v1, Object v2, Object v3) {
        this.arity = arity;
        this.v0 = v0;
        this.v1 = v1;
        this.v2 = v2;
        this.v3 = v3;
        this.rest = null;
    }

    /** A tuple of the given values (copied and checked). */
    public static Tuple of(Object... values) {
        for (int i = 0; i < values.length; i++) {
            checkValue(values[i], i);
        }
        return values.length == 0 ? EMPTY : new Tuple(values.length > INLINE ? values.clone() : values);
    }

    /** Wraps an array without checking: the caller gives it up and guarantees valid values. */
    public static Tuple wrap(Object[] values) {
        return values.length == 0 ? EMPTY : new Tuple(values);
    }

    /** Checks that {@code value} may be stored in a tuple. */
    public static void checkValue(Object value, int position) {
        if (value == null) {
            throw new IllegalArgumentException("tuple value at position " + position + " is null");
        }
        if (!(value instanceof String
                || value instanceof Long
                || value instanceof Integer
                || value instanceof Double
                || value instanceof Boolean)) {
            throw new IllegalArgumentException("tuple value at position " + position + " has type "
                    + value.getClass().getName() + "; supported: String, Long, Integer, Double, Boolean");
        }
    }

    public int arity() {
        return arity;
    }

    public Object get(int i) {
        if (rest != null) {
            return rest[i];
        }
        if (i < 0 || i >= arity) {
            throw new IndexOutOfBoundsException("index " + i + " out of bounds for arity " + arity);
        }
        return switch (i) {
            case 0 -> v0;
            case 1 -> v1;
            case 2 -> v2;
            default -> v3;
        };
    }

    /** The tuple of the values at {@code positions}, in that order. */
    public Tuple project(int[] positions) {
        int n = positions.length;
        if (n == 0) {
            return EMPTY;
        }
        if (n > INLINE) {
            Object[] out = new Object[n];
            for (int i = 0; i < n; i++) {
                out[i] = get(positions[i]);
            }
            return new Tuple(out);
        }
        return new Tuple(
                n,
                get(positions[0]),
                n > 1 ? get(positions[1]) : null,
                n > 2 ? get(positions[2]) : null,
                n > 3 ? get(positions[3]) : null);
    }

    /** A copy of the values. */
    public Object[] toArray() {
        if (rest != null) {
            return rest.clone();
        }
        Object[] out = new Object[arity];
        for (int i = 0; i < arity; i++) {
            out[i] = get(i);
        }
        return out;
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
        if (arity != other.arity || hashCode() != other.hashCode()) {
            return false;
        }
        if (rest != null) {
            return Arrays.equals(rest, other.rest);
        }
        return Objects.equals(v0, other.v0)
                && Objects.equals(v1, other.v1)
                && Objects.equals(v2, other.v2)
                && Objects.equals(v3, other.v3);
    }

    /**
     * MurmurHash3 (x86, 32-bit) over the values' own hash codes. The mixing matters: the values of
     * join keys are often small consecutive numbers, and a polynomial hash ({@code 31 * h + v}) maps
     * (a, b) and (a - 1, b + 31) to the same code, so hash maps of keys degrade into collision trees
     * as the domain grows. Deterministic across JVMs (String, Long, Integer, Double and Boolean hash
     * codes are specified), so tuples stay valid Flink keys.
     */
    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = 0x9747b28c;
            for (int i = 0; i < arity; i++) {
                int k = get(i).hashCode() * 0xcc9e2d51;
                k = Integer.rotateLeft(k, 15) * 0x1b873593;
                h ^= k;
                h = Integer.rotateLeft(h, 13) * 5 + 0xe6546b64;
            }
            h ^= arity;
            h ^= h >>> 16;
            h *= 0x85ebca6b;
            h ^= h >>> 13;
            h *= 0xc2b2ae35;
            h ^= h >>> 16;
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
        if (arity != o.arity) {
            return Integer.compare(arity, o.arity);
        }
        for (int i = 0; i < arity; i++) {
            Object a = get(i);
            Object b = o.get(i);
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
        for (int i = 0; i < arity; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(Objects.toString(get(i)));
        }
        return sb.append(')').toString();
    }
}
