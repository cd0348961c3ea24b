package io.flinkivm.core.semiring;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * MIN or MAX over a {@link Chain}, one component of a product payload: for MIN the semiring (C ∪ {⊤, ⊥},
 * min, max, ⊤, ⊥), for MAX its dual (C ∪ {⊤, ⊥}, max, min, ⊥, ⊤). A row contributes its value, or the zero
 * where SQL skips it (NULL, a FILTER not met), and a table that does not hold the aggregated column the
 * one; a join takes the one value among its rows' (max with ⊥ is the identity), a group keeps the least
 * (greatest). Both are commutative, idempotent (min(a, a) = a) and positive (min(a, b) = ⊤ only if both
 * are ⊤, max(a, b) = ⊤ only if one is): the paper's class, for which the Boolean border is sound.
 *
 * <p>An element is a {@code long} and, for a chain of objects, an object: see {@link Chain}. Under
 * deletes ({@link ProductRing}) the component is a multiset of elements, an element of the monoid ring
 * Z[(C, max)] (Z[(C, min)] for MAX): the product of x^v and x^w is x^max(v, w), and the least (greatest)
 * element present is the group's MIN (MAX).
 */
@PublicEvolving
public final class ChainComponent implements Component {
    private static final long serialVersionUID = 1L;

    private static final Set<SemiringProperty> PROPERTIES = Collections.unmodifiableSet(
            EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.IDEMPOTENT, SemiringProperty.POSITIVE));

    private final boolean min;
    private final Chain chain;

    private ChainComponent(boolean min, Chain chain) {
        this.min = min;
        this.chain = Objects.requireNonNull(chain, "chain");
    }

    /** MIN over {@code chain}: (min, max, ⊤, ⊥). */
    public static ChainComponent min(Chain chain) {
        return new ChainComponent(true, chain);
    }

    /** MAX over {@code chain}: (max, min, ⊥, ⊤). */
    public static ChainComponent max(Chain chain) {
        return new ChainComponent(false, chain);
    }

    /** Whether this is MIN (else MAX). */
    public boolean isMin() {
        return min;
    }

    public Chain chain() {
        return chain;
    }

    /** Whether elements are objects (with a tag in the long). */
    public boolean holdsObjects() {
        return chain.holdsObjects();
    }

    /** E.g. {@code min over STRING}. */
    @Override
    public String label() {
        return (min ? "min" : "max") + " over " + chain.name();
    }

    /** E.g. {@code min-multiset over STRING}. */
    @Override
    public String ringLabel() {
        return (min ? "min" : "max") + "-multiset over " + chain.name();
    }

    /** The declared properties of the component as a semiring: commutative, idempotent and positive. */
    public Set<SemiringProperty> properties() {
        return PROPERTIES;
    }

    /** The zero as a long: ⊤ for MIN, ⊥ for MAX. */
    public long zero() {
        return min ? Chain.TOP : Chain.BOTTOM;
    }

    /** The one as a long: ⊥ for MIN, ⊤ for MAX. */
    public long one() {
        return min ? Chain.BOTTOM : Chain.TOP;
    }

    /** a + b of a chain of longs: the least (MIN) or greatest (MAX). */
    public long plus(long a, long b) {
        return min ? Math.min(a, b) : Math.max(a, b);
    }

    /** a · b of a chain of longs: the greatest (MIN) or least (MAX). */
    public long times(long a, long b) {
        return min ? Math.max(a, b) : Math.min(a, b);
    }

    /** Whether the sum of the elements (a, x) and (b, y) is the first: the lesser of two for MIN. */
    public boolean sumIsFirst(long a, Object x, long b, Object y) {
        int c = chain.compare(a, x, b, y);
        return min ? c <= 0 : c >= 0;
    }

    /** Whether the product of the elements (a, x) and (b, y) is the first: the greater of two for MIN. */
    public boolean productIsFirst(long a, Object x, long b, Object y) {
        int c = chain.compare(a, x, b, y);
        return min ? c >= 0 : c <= 0;
    }

    /**
     * Checks an element: a long value of the chain, ⊤ or ⊥; for a chain of objects a tag with an object
     * exactly for {@link Chain#VALUE}.
     *
     * @throws PayloadFormatException if it is none
     */
    public void check(long v, Object object) {
        if (v == Chain.TOP || v == Chain.BOTTOM) {
            if (object != null) {
                throw new PayloadFormatException(label() + ": " + chain.format(v, null) + " has no object");
            }
        } else if (chain.holdsObjects()) {
            if (v != Chain.VALUE) {
                throw new PayloadFormatException(label() + ": the tag of a value is " + Chain.VALUE + ", got " + v);
            }
            chain.checkObject(object);
        } else if (object != null || !chain.isLongValue(v)) {
            throw new PayloadFormatException(label() + ": " + v + " is not a value of " + chain.name());
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChainComponent c && c.min == min && c.chain.equals(chain);
    }

    @Override
    public int hashCode() {
        return chain.hashCode() * 2 + (min ? 1 : 0);
    }

    @Override
    public String toString() {
        return label();
    }
}
