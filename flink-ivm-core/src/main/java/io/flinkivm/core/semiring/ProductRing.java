package io.flinkivm.core.semiring;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The aggregates of a {@link ProductSemiring} under deletes: the direct product of an integer count and
 * further components, each a ring, operations componentwise. The count and the sums are integers
 * (Z); MIN and MAX (exact or double) are {@link ValueMultiset}s, the group ring Z[(V, +)], whose least
 * (greatest) value is the aggregate, so that a delete removes one occurrence of its value and the
 * MIN of a group falls back to the next value, O(log n) for a group of n values (as Flink SQL's
 * retracting MIN/MAX keep a map from value to count). {@link Product#get} reads a multiset's MIN or
 * MAX, or the component's zero (∞) when it is empty.
 *
 * <p>{@code of(components)} takes the same components as {@link ProductSemiring#of}: a natural
 * component becomes an integer. A payload is the zero when every component is zero (a count of 0
 * alone does not make it zero: sums may cancel). Text form: the components separated by semicolons,
 * a multiset as {@code {3 5x2}} (value 3 once, value 5 twice) or as a bare value meaning that value
 * once ({@code inf} for none), e.g. {@code 1;-25;7}.
 */
@PublicEvolving
public final class ProductRing extends ProductAlgebra implements Ring<Product> {
    private static final long serialVersionUID = 1L;

    private static final Set<SemiringProperty> PROPERTIES =
            Collections.unmodifiableSet(EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.RING));

    private ProductRing(LongComponent[] components) {
        super(components, ProductRing::isMultiset);
    }

    /**
     * The ring of an integer count and {@code components}, in order (the count is component 0): natural
     * and integer components are integers, MIN and MAX ones multisets.
     */
    public static ProductRing of(List<LongComponent> components) {
        LongComponent[] all = new LongComponent[components.size() + 1];
        all[0] = LongComponent.INTEGER;
        for (int i = 0; i < components.size(); i++) {
            LongComponent c = Objects.requireNonNull(components.get(i), "component");
            all[i + 1] = c == LongComponent.NATURAL ? LongComponent.INTEGER : c;
        }
        return new ProductRing(all);
    }

    private static boolean isMultiset(LongComponent c) {
        return c != LongComponent.INTEGER;
    }

    /** Whether component {@code i} is a multiset. */
    public boolean isMultiset(int i) {
        return multiset[i];
    }

    @Override
    public Product plus(Product a, Product b) {
        if (isZero(a)) {
            return b;
        }
        if (isZero(b)) {
            return a;
        }
        return combine(a, b, true);
    }

    @Override
    public Product times(Product a, Product b) {
        if (isZero(a) || isZero(b)) {
            return zero();
        }
        if (a.equals(one())) {
            return b;
        }
        if (b.equals(one())) {
            return a;
        }
        return combine(a, b, false);
    }

    @Override
    public Product negate(Product a) {
        int n = components.length;
        long[] out = new long[n];
        ValueMultiset[] sets = anyMultiset ? new ValueMultiset[n] : null;
        for (int i = 0; i < n; i++) {
            if (multiset[i]) {
                sets[i] = a.multiset(i).negate();
                out[i] = extreme(components[i], sets[i]);
            } else if (a.get(i) == Long.MIN_VALUE) {
                throw new PayloadOverflowException("integer overflow: -(" + a.get(i) + ") exceeds 64 bits");
            } else {
                out[i] = -a.get(i);
            }
        }
        return Product.wrap(out, sets);
    }

    /** Every component is zero (the count alone may be 0 when sums cancel). */
    @Override
    public boolean isZero(Product a) {
        if (a == zero()) {
            return true;
        }
        for (int i = 0; i < components.length; i++) {
            if (multiset[i] ? !a.multiset(i).isEmpty() : a.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    /** The row is present and gives up part of its count; a row with count 0 (not zero) only all of itself. */
    @Override
    public boolean canRemove(Product present, Product removed) {
        if (isZero(present)) {
            return false;
        }
        return present.count() == 0
                ? isZero(removed) || removed.equals(present)
                : Ring.withinMultiplicity(present.count(), removed.count());
    }

    /**
     * The payload of one row from its component values: an integer component takes its value, a
     * multiset component the value once (its zero, ∞ for MIN: no value).
     *
     * @throws PayloadFormatException if the arity is wrong or a value is not one of its component's
     */
    public Product payload(long... values) {
        checkValues(values);
        int n = components.length;
        long[] out = new long[n];
        ValueMultiset[] sets = anyMultiset ? new ValueMultiset[n] : null;
        for (int i = 0; i < n; i++) {
            LongComponent c = components[i];
            if (multiset[i]) {
                sets[i] = values[i] == c.zero() ? ValueMultiset.empty() : ValueMultiset.of(encode(c, values[i]), 1);
                out[i] = values[i];
            } else {
                out[i] = values[i];
            }
        }
        return Product.wrap(out, sets);
    }

    /**
     * A payload from its parts, as a serializer stores them: per integer component its value (the
     * entries of {@code values} at multiset components are ignored), per multiset component its
     * multiset of encoded values ({@link Product#multiset}; null at integer components).
     *
     * @throws PayloadFormatException if the arity is wrong or a multiset is missing
     */
    public Product of(long[] values, ValueMultiset[] multisets) {
        int n = components.length;
        if (values.length != n || multisets.length != n) {
            throw new PayloadFormatException(name() + " has " + n + " components, got " + values.length + " values and "
                    + multisets.length + " multisets");
        }
        long[] out = values.clone();
        ValueMultiset[] sets = anyMultiset ? new ValueMultiset[n] : null;
        for (int i = 0; i < n; i++) {
            if (!multiset[i]) {
                continue;
            }
            if (multisets[i] == null) {
                throw new PayloadFormatException("component " + i + " of " + name() + " needs a multiset");
            }
            sets[i] = multisets[i];
            out[i] = extreme(components[i], sets[i]);
        }
        return Product.wrap(out, sets);
    }

    @Override
    public Product parse(String text) {
        List<String> parts = components(text, name(), components.length);
        int n = components.length;
        long[] out = new long[n];
        ValueMultiset[] sets = anyMultiset ? new ValueMultiset[n] : null;
        for (int i = 0; i < n; i++) {
            LongComponent c = components[i];
            String part = parts.get(i).trim();
            if (!multiset[i]) {
                out[i] = c.parse(part);
            } else if (part.startsWith("{")) {
                sets[i] = parseMultiset(c, part, text);
                out[i] = extreme(c, sets[i]);
            } else {
                long v = c.parse(part);
                sets[i] = v == c.zero() ? ValueMultiset.empty() : ValueMultiset.of(encode(c, v), 1);
                out[i] = v;
            }
        }
        return Product.wrap(out, sets);
    }

    /** {@code {v1 v2x3 ...}}: values in any order, each with an optional non-zero multiplicity after x. */
    private ValueMultiset parseMultiset(LongComponent c, String part, String text) {
        if (!part.endsWith("}")) {
            throw new PayloadFormatException("not a " + name() + " payload: '" + text + "': a multiset ends with '}'");
        }
        ValueMultiset m = ValueMultiset.empty();
        for (String token : part.substring(1, part.length() - 1).trim().split("\\s+")) {
            if (token.isEmpty()) {
                continue;
            }
            int x = token.indexOf('x', 1);
            long multiplicity = 1;
            String value = token;
            if (x > 0) {
                value = token.substring(0, x);
                try {
                    multiplicity = Long.parseLong(token.substring(x + 1));
                } catch (NumberFormatException e) {
                    multiplicity = 0;
                }
                if (multiplicity == 0) {
                    throw new PayloadFormatException("not a " + name() + " payload: '" + text + "': '" + token
                            + "' needs a non-zero integer multiplicity after x");
                }
            }
            long v = c.parse(value);
            if (v == c.zero()) {
                throw new PayloadFormatException(
                        "not a " + name() + " payload: '" + text + "': " + value + " is no value of a multiset");
            }
            m = m.add(encode(c, v), multiplicity);
        }
        return m;
    }

    @Override
    public Set<SemiringProperty> properties() {
        return PROPERTIES;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProductRing p && Arrays.equals(p.components, components);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(components) + 0x72696e67;
    }
}
