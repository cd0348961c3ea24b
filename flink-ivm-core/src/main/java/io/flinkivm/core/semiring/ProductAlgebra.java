package io.flinkivm.core.semiring;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What the product semiring and the product ring share: the components (the count first), zero, one
 * and name, the text form, and the componentwise sum and product. A component is a {@code long}
 * ({@link LongComponent}'s operations), or, in the ring, a {@link ValueMultiset} whose least
 * (greatest) value is the component's MIN (MAX); the semiring has no multiset components. The two
 * differ in what their zero is, in the payloads they admit and in their names' count.
 */
abstract sealed class ProductAlgebra implements Semiring<Product> permits ProductSemiring, ProductRing {
    private static final long serialVersionUID = 1L;

    final LongComponent[] components;
    /** Per component: whether it is a multiset. */
    final boolean[] multiset;

    final boolean anyMultiset;
    private final Product zero;
    private final Product one;
    private final String name;

    /** @param isMultiset which components are multisets */
    ProductAlgebra(LongComponent[] components, Predicate<LongComponent> isMultiset) {
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
            multiset[i] = isMultiset.test(c);
            any |= multiset[i];
            z[i] = c.zero();
            o[i] = c.one();
            if (multiset[i]) {
                zm[i] = ValueMultiset.empty();
                om[i] = ValueMultiset.of(encode(c, c.one()), 1);
            }
            sb.append(i == 0 ? "" : ",").append(label(i));
        }
        this.anyMultiset = any;
        this.zero = Product.wrap(z, any ? zm : null);
        this.one = Product.wrap(o, any ? om : null);
        this.name = sb.append(')').toString();
    }

    /** The components, the count first. */
    public List<LongComponent> components() {
        return List.of(components);
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

    /** Componentwise a + b ({@code sum}) or a · b; neither may be the zero (the callers' shortcut). */
    final Product combine(Product a, Product b, boolean sum) {
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

    /**
     * Refuses component values of the wrong arity or outside their components.
     *
     * @throws PayloadFormatException if the arity is wrong or a value is not one of its component's
     */
    final void checkValues(long... values) {
        if (values.length != components.length) {
            throw new PayloadFormatException(
                    name + " has " + components.length + " components, got " + values.length + " values");
        }
        for (int i = 0; i < values.length; i++) {
            if (!components[i].accepts(values[i])) {
                throw new PayloadFormatException(
                        "component " + i + " of " + name + ": not a " + components[i].label() + " value");
            }
        }
    }

    /**
     * The {@code arity} parts of a product's text form, separated by semicolons (the parts not trimmed).
     *
     * @throws PayloadFormatException if there are more or fewer
     */
    static List<String> components(String text, String name, int arity) {
        String t = Decimals.requireText(text, name);
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= t.length(); i++) {
            if (i == t.length() || t.charAt(i) == ';') {
                parts.add(t.substring(start, i));
                start = i + 1;
            }
        }
        if (parts.size() != arity) {
            throw new PayloadFormatException(
                    "not a " + name + " payload: '" + text + "' (expected " + arity + " values separated by ';')");
        }
        return parts;
    }

    /** The components separated by semicolons; a multiset as {@code {3 5x2}} (3 once, 5 twice). */
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

    @Override
    public Class<Product> payloadClass() {
        return Product.class;
    }

    @Override
    public String toString() {
        return name;
    }

    /** Component {@code i}'s name in the algebra's name: its kind, with {@code -multiset} for a multiset. */
    private String label(int i) {
        return multiset[i] ? components[i].label() + "-multiset" : components[i].label();
    }

    private static boolean isDouble(LongComponent c) {
        return c == LongComponent.MIN_DOUBLE || c == LongComponent.MAX_DOUBLE;
    }

    /** The sum of two values of a multiset component (their product there), which must stay a value. */
    private static long valueSum(LongComponent c, long v, long w) {
        long sum = c.times(v, w);
        if (sum == c.zero() || isDouble(c) && !Double.isFinite(LongComponent.value(sum))) {
            throw new PayloadOverflowException(c.label() + " overflow: the sum of two values of " + c.label()
                    + "-multiset leaves the range of values");
        }
        return sum;
    }

    /** The least value of a MIN multiset, the greatest of a MAX one, or the component's zero if empty. */
    static long extreme(LongComponent c, ValueMultiset m) {
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
    static long encode(LongComponent c, long value) {
        return isDouble(c) && value < 0 ? value ^ Long.MAX_VALUE : value;
    }

    static long decode(LongComponent c, long encoded) {
        return encode(c, encoded);
    }
}
