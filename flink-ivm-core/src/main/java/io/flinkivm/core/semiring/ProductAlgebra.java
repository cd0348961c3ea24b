package io.flinkivm.core.semiring;

import java.util.ArrayList;
import java.util.List;

/**
 * What the product semiring and the product ring share: the components (the count first), zero, one
 * and name, the text form, and the componentwise sum and product. A component is a {@code long}
 * ({@link LongComponent}'s operations, or a {@link ChainComponent} over a chain of longs), an element of
 * a chain of objects (a tag and an object), or, in the ring, a multiset: a {@link ValueMultiset} (longs)
 * or an {@link ObjectMultiset} whose least (greatest) element is the component's MIN (MAX). The two
 * differ in what their zero is, in the payloads they admit and in their names' count.
 */
abstract sealed class ProductAlgebra implements Semiring<Product> permits ProductSemiring, ProductRing {
    private static final long serialVersionUID = 1L;

    /** The forms of a component: how its payload part is kept. */
    static final byte LONG = 0;

    static final byte LONG_SET = 1;
    static final byte CHAIN = 2;
    static final byte CHAIN_SET = 3;
    static final byte OBJECT = 4;
    static final byte OBJECT_SET = 5;

    final Component[] components;
    /** Per component: its form ({@link #LONG}, ...). */
    final byte[] form;
    /** Per component: whether it is a multiset. */
    final boolean[] multiset;

    final boolean anyMultiset;
    /** Whether a component keeps objects (a chain of objects, as elements or in the ring as multisets). */
    final boolean anyObject;

    private final Product zero;
    private final Product one;
    private final String name;

    /** @param ring whether MIN and MAX components are multisets */
    ProductAlgebra(Component[] components, boolean ring) {
        this.components = components;
        int n = components.length;
        form = new byte[n];
        multiset = new boolean[n];
        boolean anySet = false;
        boolean anyObj = false;
        for (int i = 0; i < n; i++) {
            Component c = components[i];
            boolean set = ring && c != LongComponent.INTEGER;
            if (c instanceof ChainComponent chain) {
                anyObj |= chain.holdsObjects();
                form[i] = chain.holdsObjects() ? (set ? OBJECT_SET : OBJECT) : (set ? CHAIN_SET : CHAIN);
            } else {
                form[i] = set ? LONG_SET : LONG;
            }
            multiset[i] = set;
            anySet |= set;
        }
        this.anyMultiset = anySet;
        this.anyObject = anyObj;
        long[] z = new long[n];
        long[] o = new long[n];
        Object[] zm = anySet ? new Object[n] : null;
        Object[] om = anySet ? new Object[n] : null;
        StringBuilder sb = new StringBuilder("product(");
        for (int i = 0; i < n; i++) {
            Component c = components[i];
            z[i] = zero(c);
            o[i] = one(c);
            switch (form[i]) {
                case LONG_SET -> {
                    LongComponent l = (LongComponent) c;
                    zm[i] = ValueMultiset.empty();
                    om[i] = ValueMultiset.of(encode(l, l.one()), 1);
                }
                case CHAIN_SET -> {
                    zm[i] = ValueMultiset.empty();
                    om[i] = ValueMultiset.of(o[i], 1);
                }
                case OBJECT_SET -> {
                    Chain chain = ((ChainComponent) c).chain();
                    zm[i] = ObjectMultiset.empty(chain);
                    om[i] = ObjectMultiset.of(chain, o[i], null, 1);
                }
                default -> {}
            }
            sb.append(i == 0 ? "" : ",").append(ring ? c.ringLabel() : c.label());
        }
        this.zero = Product.wrap(z, zm, anyObj ? new Object[n] : null);
        this.one = Product.wrap(o, om, anyObj ? new Object[n] : null);
        this.name = sb.append(')').toString();
    }

    private static long zero(Component c) {
        return c instanceof ChainComponent chain ? chain.zero() : ((LongComponent) c).zero();
    }

    private static long one(Component c) {
        return c instanceof ChainComponent chain ? chain.one() : ((LongComponent) c).one();
    }

    /** The components, the count first. */
    public List<Component> components() {
        return List.of(components);
    }

    /** The number of components, the count included. */
    public int arity() {
        return components.length;
    }

    /** Whether a component keeps objects: its payloads are not their longs alone. */
    public boolean hasObjects() {
        return anyObject;
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
        Object[] sets = anyMultiset ? new Object[n] : null;
        Object[] objects = anyObject ? new Object[n] : null;
        for (int i = 0; i < n; i++) {
            switch (form[i]) {
                case LONG -> {
                    LongComponent c = (LongComponent) components[i];
                    out[i] = sum ? c.plus(a.get(i), b.get(i)) : c.times(a.get(i), b.get(i));
                }
                case CHAIN -> {
                    ChainComponent c = (ChainComponent) components[i];
                    out[i] = sum ? c.plus(a.get(i), b.get(i)) : c.times(a.get(i), b.get(i));
                }
                case OBJECT -> {
                    ChainComponent c = (ChainComponent) components[i];
                    long x = a.get(i);
                    long y = b.get(i);
                    Object xo = a.object(i);
                    Object yo = b.object(i);
                    boolean first = sum ? c.sumIsFirst(x, xo, y, yo) : c.productIsFirst(x, xo, y, yo);
                    out[i] = first ? x : y;
                    objects[i] = first ? xo : yo;
                }
                case LONG_SET -> {
                    LongComponent c = (LongComponent) components[i];
                    ValueMultiset x = a.multiset(i);
                    ValueMultiset y = b.multiset(i);
                    ValueMultiset m =
                            sum ? x.plus(y) : x.times(y, (v, w) -> encode(c, valueSum(c, decode(c, v), decode(c, w))));
                    sets[i] = m;
                    out[i] = extreme(c, m);
                }
                case CHAIN_SET -> {
                    ChainComponent c = (ChainComponent) components[i];
                    ValueMultiset m = sum ? a.multiset(i).plus(b.multiset(i)) : chainTimes(c, a, b, i);
                    sets[i] = m;
                    out[i] = extreme(c, m);
                }
                default -> {
                    ChainComponent c = (ChainComponent) components[i];
                    ObjectMultiset x = a.objectMultiset(i);
                    ObjectMultiset y = b.objectMultiset(i);
                    ObjectMultiset m = sum ? x.plus(y) : x.times(y, c.isMin());
                    sets[i] = m;
                    setExtreme(c, m, out, objects, i);
                }
            }
        }
        return Product.wrap(out, sets, objects);
    }

    /** The product of two chain multisets of longs: the greater (MIN) or lesser (MAX) of each pair. */
    private ValueMultiset chainTimes(ChainComponent c, Product a, Product b, int i) {
        ValueMultiset x = a.multiset(i);
        ValueMultiset y = b.multiset(i);
        ValueMultiset one = one().multiset(i);
        if (x.equals(one)) {
            return y;
        }
        if (y.equals(one)) {
            return x;
        }
        return x.times(y, c.isMin() ? Math::max : Math::min);
    }

    /** Sets {@code out[i]} and {@code objects[i]} to a chain multiset's least (MIN) or greatest element, or the zero. */
    static void setExtreme(ChainComponent c, ObjectMultiset m, long[] out, Object[] objects, int i) {
        if (m.isEmpty()) {
            out[i] = c.zero();
            objects[i] = null;
        } else if (c.isMin()) {
            out[i] = m.firstTag();
            objects[i] = m.firstValue();
        } else {
            out[i] = m.lastTag();
            objects[i] = m.lastValue();
        }
    }

    /**
     * Refuses component values of the wrong arity or outside their components; {@code objects} may be
     * null where no component keeps objects.
     *
     * @throws PayloadFormatException if the arity is wrong or a value is not one of its component's
     */
    final void checkValues(long[] values, Object[] objects) {
        if (values.length != components.length || objects != null && objects.length != components.length) {
            throw new PayloadFormatException(name + " has " + components.length + " components, got " + values.length
                    + " values" + (objects == null ? "" : " and " + objects.length + " objects"));
        }
        if (objects == null && anyObject) {
            throw new PayloadFormatException(name + " keeps objects: a payload needs them");
        }
        for (int i = 0; i < values.length; i++) {
            Component c = components[i];
            Object o = objects == null ? null : objects[i];
            if (c instanceof ChainComponent chain) {
                chain.check(values[i], o);
            } else if (o != null || !((LongComponent) c).accepts(values[i])) {
                throw new PayloadFormatException("component " + i + " of " + name + ": not a " + c.label() + " value");
            }
        }
    }

    /**
     * The {@code arity} parts of a product's text form, separated by semicolons outside quotes (the parts
     * not trimmed).
     *
     * @throws PayloadFormatException if there are more or fewer
     */
    static List<String> components(String text, String name, int arity) {
        String t = Decimals.requireText(text, name);
        List<String> parts = new ArrayList<>();
        int start = 0;
        boolean quoted = false;
        for (int i = 0; i <= t.length(); i++) {
            if (i < t.length() && t.charAt(i) == '\'') {
                quoted = !quoted;
            } else if (i == t.length() || !quoted && t.charAt(i) == ';') {
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

    /**
     * The components separated by semicolons; a multiset as {@code {3 5x2}} (3 once, 5 twice); an element
     * of a chain in the chain's text ({@code 'text'}, {@code 2024-05-01}, {@code top}, ...).
     */
    @Override
    public String format(Product value) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < components.length; i++) {
            sb.append(i == 0 ? "" : ";");
            Component c = components[i];
            switch (form[i]) {
                case LONG -> sb.append(((LongComponent) c).format(value.get(i)));
                case CHAIN, OBJECT -> sb.append(((ChainComponent) c).chain().format(value.get(i), value.object(i)));
                case LONG_SET -> {
                    LongComponent l = (LongComponent) c;
                    StringBuilder set = new StringBuilder("{");
                    value.multiset(i)
                            .forEach((v, k) -> set.append(set.length() == 1 ? "" : " ")
                                    .append(l.format(decode(l, v)))
                                    .append(k == 1 ? "" : "x" + k));
                    sb.append(set).append('}');
                }
                case CHAIN_SET -> {
                    Chain chain = ((ChainComponent) c).chain();
                    StringBuilder set = new StringBuilder("{");
                    value.multiset(i)
                            .forEach((v, k) -> set.append(set.length() == 1 ? "" : " ")
                                    .append(chain.format(v, null))
                                    .append(k == 1 ? "" : "x" + k));
                    sb.append(set).append('}');
                }
                default -> sb.append(value.objectMultiset(i));
            }
        }
        return sb.toString();
    }

    /**
     * The tokens of a multiset's text between its braces: separated by whitespace outside quotes, each an
     * element's text with an optional {@code x} and multiplicity after it ({@code 'a b'x2}).
     */
    static List<String[]> multisetTokens(String inner, String text, String name) {
        List<String[]> out = new ArrayList<>();
        int i = 0;
        int n = inner.length();
        while (i < n) {
            if (Character.isWhitespace(inner.charAt(i))) {
                i++;
                continue;
            }
            int start = i;
            int end;
            if (inner.charAt(i) == '\'') {
                i++;
                while (i < n && !(inner.charAt(i) == '\'' && (i + 1 == n || inner.charAt(i + 1) != '\''))) {
                    i += inner.charAt(i) == '\'' ? 2 : 1;
                }
                if (i >= n) {
                    throw new PayloadFormatException(
                            "not a " + name + " payload: '" + text + "': a string in a multiset is not closed");
                }
                end = ++i;
                while (i < n && !Character.isWhitespace(inner.charAt(i))) {
                    i++;
                }
            } else {
                while (i < n && !Character.isWhitespace(inner.charAt(i))) {
                    i++;
                }
                int x = inner.indexOf('x', start + 1);
                end = x > 0 && x < i ? x : i;
            }
            String element = inner.substring(start, end);
            String suffix = inner.substring(end, i);
            if (!suffix.isEmpty() && suffix.charAt(0) != 'x') {
                throw new PayloadFormatException("not a " + name + " payload: '" + text + "': '"
                        + inner.substring(start, i) + "' is no element with a multiplicity");
            }
            out.add(new String[] {element, suffix.isEmpty() ? null : suffix.substring(1)});
        }
        return out;
    }

    /** A multiplicity after {@code x}: a non-zero integer. */
    static long multiplicity(String digits, String token, String text, String name) {
        if (digits == null) {
            return 1;
        }
        long m;
        try {
            m = Long.parseLong(digits);
        } catch (NumberFormatException e) {
            m = 0;
        }
        if (m == 0) {
            throw new PayloadFormatException("not a " + name + " payload: '" + text + "': '" + token
                    + "' needs a non-zero integer multiplicity after x");
        }
        return m;
    }

    @Override
    public Class<Product> payloadClass() {
        return Product.class;
    }

    @Override
    public String toString() {
        return name;
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

    /** A chain multiset's least (MIN) or greatest element, or the component's zero if empty. */
    static long extreme(ChainComponent c, ValueMultiset m) {
        return m.isEmpty() ? c.zero() : c.isMin() ? m.first() : m.last();
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
