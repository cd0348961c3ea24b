package io.flinkivm.core.semiring;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

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
public final class ProductRing implements Ring<Product> {
    private static final long serialVersionUID = 1L;

    private static final Set<SemiringProperty> PROPERTIES =
            Collections.unmodifiableSet(EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.RING));

    private final LongComponent[] components;
    /** Per component: whether it is a multiset (MIN, MAX and their double variants). */
    private final boolean[] multiset;

    private final boolean anyMultiset;
    private final Product zero;
    private final Product one;
    private final String name;

    private ProductRing(LongComponent[] components) {
        this.components = components;
        int n = components.length;
        multiset = new boolean[n];
        long[] z = new long[n];
        long[] o = new long[n];
        ValueMultiset[] zm = new ValueMultiset[n];
        ValueMultiset[] om = new ValueMultiset[n];
        boolean any = false;
        StringBuilder sb = new StringBuilder("product(");
        for (int i = 0; i < n; i++) {
            LongComponent c = components[i];
            multiset[i] = isMultiset(c);
            any |= multiset[i];
            z[i] = c.zero();
            o[i] = c.one();
            if (multiset[i]) {
                zm[i] = ValueMultiset.empty();
                om[i] = ValueMultiset.of(encode(c, c.one()), 1);
            }
            sb.append(i == 0 ? "" : ",").append(label(c));
        }
        this.anyMultiset = any;
        this.zero = Product.wrap(z, any ? zm : null);
        this.one = Product.wrap(o, any ? om : null);
        this.name = sb.append(')').toString();
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

    private static boolean isDouble(LongComponent c) {
        return c == LongComponent.MIN_DOUBLE || c == LongComponent.MAX_DOUBLE;
    }

    /** A component's name in the ring's name: {@code integer}, or the kind with {@code -multiset}. */
    private static String label(LongComponent c) {
        return isMultiset(c) ? c.label() + "-multiset" : c.label();
    }

    /**
     * The components, the count first: {@link LongComponent#INTEGER}, or the MIN/MAX kind of a
     * multiset component ({@link #isMultiset(int)}).
     */
    public List<LongComponent> components() {
        return List.of(components);
    }

    /** Whether component {@code i} is a multiset. */
    public boolean isMultiset(int i) {
        return multiset[i];
    }

    /** The number of components, the count included. */
    public int arity() {
        return components.length;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Product zero() {
        return zero;
    }

    @Override
    public Product one() {
        return one;
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
            return zero;
        }
        if (a.equals(one)) {
            return b;
        }
        if (b.equals(one)) {
            return a;
        }
        return combine(a, b, false);
    }

    private Product combine(Product a, Product b, boolean sum) {
        int n = components.length;
        long[] out = new long[n];
        ValueMultiset[] sets = anyMultiset ? new ValueMultiset[n] : null;
        for (int i = 0; i < n; i++) {
            LongComponent c = components[i];
            if (!multiset[i]) {
                out[i] = sum ? c.plus(a.get(i), b.get(i)) : c.times(a.get(i), b.get(i));
                continue;
            }
            ValueMultiset x = a.multiset(i);
            ValueMultiset y = b.multiset(i);
            sets[i] = sum ? x.plus(y) : x.times(y, (v, w) -> encode(c, valueSum(c, decode(c, v), decode(c, w))));
            out[i] = extreme(c, sets[i]);
        }
        return Product.wrap(out, sets);
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
        if (a == zero) {
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
        if (values.length != components.length) {
            throw new PayloadFormatException(
                    name + " has " + components.length + " components, got " + values.length + " values");
        }
        int n = components.length;
        long[] out = new long[n];
        ValueMultiset[] sets = anyMultiset ? new ValueMultiset[n] : null;
        for (int i = 0; i < n; i++) {
            LongComponent c = components[i];
            if (!c.accepts(values[i])) {
                throw new PayloadFormatException("component " + i + " of " + name + ": not a " + c.label() + " value");
            }
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
            throw new PayloadFormatException(name + " has " + n + " components, got " + values.length + " values and "
                    + multisets.length + " multisets");
        }
        long[] out = values.clone();
        ValueMultiset[] sets = anyMultiset ? new ValueMultiset[n] : null;
        for (int i = 0; i < n; i++) {
            if (!multiset[i]) {
                continue;
            }
            if (multisets[i] == null) {
                throw new PayloadFormatException("component " + i + " of " + name + " needs a multiset");
            }
            sets[i] = multisets[i];
            out[i] = extreme(components[i], sets[i]);
        }
        return Product.wrap(out, sets);
    }

    @Override
    public Product parse(String text) {
        List<String> parts = ProductSemiring.components(text, name, components.length);
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
            throw new PayloadFormatException("not a " + name + " payload: '" + text + "': a multiset ends with '}'");
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
                    throw new PayloadFormatException("not a " + name + " payload: '" + text + "': '" + token
                            + "' needs a non-zero integer multiplicity after x");
                }
            }
            long v = c.parse(value);
            if (v == c.zero()) {
                throw new PayloadFormatException(
                        "not a " + name + " payload: '" + text + "': " + value + " is no value of a multiset");
            }
            m = m.add(encode(c, v), multiplicity);
        }
        return m;
    }

    @Override
    public String format(Product value) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < components.length; i++) {
            sb.append(i == 0 ? "" : ";");
            LongComponent c = components[i];
            if (!multiset[i]) {
                sb.append(c.format(value.get(i)));
                continue;
            }
            StringBuilder set = new StringBuilder("{");
            value.multiset(i)
                    .forEach((v, k) -> set.append(set.length() == 1 ? "" : " ")
                            .append(c.format(decode(c, v)))
                            .append(k == 1 ? "" : "x" + k));
            sb.append(set).append('}');
        }
        return sb.toString();
    }

    /** The sum of two values of a multiset component (their product there), which must stay a value. */
    private static long valueSum(LongComponent c, long v, long w) {
        long sum = c.times(v, w);
        if (sum == c.zero() || isDouble(c) && !Double.isFinite(LongComponent.value(sum))) {
            throw new PayloadOverflowException(
                    c.label() + " overflow: the sum of two values of " + label(c) + " leaves the range of values");
        }
        return sum;
    }

    /** The least value of a MIN multiset, the greatest of a MAX one, or the component's zero if empty. */
    private static long extreme(LongComponent c, ValueMultiset m) {
        if (m.isEmpty()) {
            return c.zero();
        }
        boolean min = c == LongComponent.MIN || c == LongComponent.MIN_DOUBLE;
        return decode(c, min ? m.first() : m.last());
    }

    /**
     * A component value as a multiset value that orders as the component's values do: itself, or for a
     * double (kept as its bits) the bits with every bit but the sign flipped when negative.
     */
    private static long encode(LongComponent c, long value) {
        return isDouble(c) && value < 0 ? value ^ Long.MAX_VALUE : value;
    }

    private static long decode(LongComponent c, long encoded) {
        return encode(c, encoded);
    }

    @Override
    public Class<Product> payloadClass() {
        return Product.class;
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

    @Override
    public String toString() {
        return name;
    }
}
