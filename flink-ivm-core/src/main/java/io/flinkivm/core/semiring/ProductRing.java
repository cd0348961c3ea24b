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
 * retracting MIN/MAX keep a map from value to count). MIN and MAX over a chain ({@link ChainComponent})
 * are multisets in the monoid ring Z[(C, max)] (Z[(C, min)] for MAX): {@link ValueMultiset}s for a chain
 * of longs, {@link ObjectMultiset}s for one of objects. {@link Product#get} (and {@link Product#object})
 * reads a multiset's MIN or MAX, or the component's zero (∞, ⊤, ⊥) when it is empty.
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

    private ProductRing(Component[] components) {
        super(components, true);
    }

    /**
     * The ring of an integer count and {@code components}, in order (the count is component 0): natural
     * and integer components are integers, MIN and MAX ones (also over chains) multisets.
     */
    public static ProductRing of(List<? extends Component> components) {
        Component[] all = new Component[components.size() + 1];
        all[0] = LongComponent.INTEGER;
        for (int i = 0; i < components.size(); i++) {
            Component c = Objects.requireNonNull(components.get(i), "component");
            all[i + 1] = c == LongComponent.NATURAL ? LongComponent.INTEGER : c;
        }
        return new ProductRing(all);
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
        Object[] sets = anyMultiset ? new Object[n] : null;
        Object[] objects = anyObject ? new Object[n] : null;
        for (int i = 0; i < n; i++) {
            if (multiset[i]) {
                setMultiset(i, negate(a, i), out, sets, objects);
            } else if (a.get(i) == Long.MIN_VALUE) {
                throw new PayloadOverflowException("integer overflow: -(" + a.get(i) + ") exceeds 64 bits");
            } else {
                out[i] = -a.get(i);
            }
        }
        return Product.wrap(out, sets, objects);
    }

    private Object negate(Product a, int i) {
        return form[i] == OBJECT_SET
                ? a.objectMultiset(i).negate()
                : a.multiset(i).negate();
    }

    /** Puts multiset {@code m} at component {@code i}, with its MIN or MAX as the component's value. */
    private void setMultiset(int i, Object m, long[] out, Object[] sets, Object[] objects) {
        sets[i] = m;
        switch (form[i]) {
            case LONG_SET -> out[i] = extreme((LongComponent) components[i], (ValueMultiset) m);
            case CHAIN_SET -> out[i] = extreme((ChainComponent) components[i], (ValueMultiset) m);
            default -> setExtreme((ChainComponent) components[i], (ObjectMultiset) m, out, objects, i);
        }
    }

    /** Every component is zero (the count alone may be 0 when sums cancel). */
    @Override
    public boolean isZero(Product a) {
        if (a == zero()) {
            return true;
        }
        for (int i = 0; i < components.length; i++) {
            if (multiset[i] ? !isEmpty(a, i) : a.get(i) != 0) {
                return false;
            }
        }
        return true;
    }

    private boolean isEmpty(Product a, int i) {
        return form[i] == OBJECT_SET
                ? a.objectMultiset(i).isEmpty()
                : a.multiset(i).isEmpty();
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
        return payload(values, null);
    }

    /**
     * The payload of one row from its component values and objects (for the chains of objects, where
     * the value is the tag; elsewhere null; {@code objects} may be null where no component keeps
     * objects): an integer component takes its value, a multiset component the element once (none for
     * its zero: ∞, or ⊤ for MIN over a chain).
     *
     * @throws PayloadFormatException if the arity is wrong or an element is not one of its component's
     */
    public Product payload(long[] values, Object[] objects) {
        checkValues(values, objects);
        int n = components.length;
        long[] out = values.clone();
        Object[] sets = anyMultiset ? new Object[n] : null;
        Object[] objs = anyObject ? objects.clone() : null;
        for (int i = 0; i < n; i++) {
            if (!multiset[i]) {
                continue;
            }
            Component c = components[i];
            switch (form[i]) {
                case LONG_SET -> {
                    LongComponent l = (LongComponent) c;
                    sets[i] = values[i] == l.zero() ? ValueMultiset.empty() : ValueMultiset.of(encode(l, values[i]), 1);
                }
                case CHAIN_SET ->
                    sets[i] = values[i] == ((ChainComponent) c).zero()
                            ? ValueMultiset.empty()
                            : ValueMultiset.of(values[i], 1);
                default -> {
                    ChainComponent chain = (ChainComponent) c;
                    sets[i] = values[i] == chain.zero()
                            ? ObjectMultiset.empty(chain.chain())
                            : ObjectMultiset.of(chain.chain(), values[i], objects[i], 1);
                }
            }
        }
        return Product.wrap(out, sets, objs);
    }

    /**
     * The payload in this ring of a payload of the {@link ProductSemiring} with the same components (a
     * natural count as an integer, each MIN or MAX as a multiset of its element once).
     *
     * @throws PayloadFormatException if its components are not this ring's
     */
    public Product lift(Product semiringPayload) {
        return payload(semiringPayload.toArray(), anyObject ? semiringPayload.objects() : null);
    }

    /**
     * A payload from its parts, as a serializer stores them: per integer component its value (the
     * entries of {@code values} at multiset components are ignored), per multiset component its
     * multiset ({@link Product#multiset} or {@link Product#objectMultiset}; null at integer components).
     *
     * @throws PayloadFormatException if the arity is wrong or a multiset is missing or of the wrong kind
     */
    public Product of(long[] values, Object[] multisets) {
        int n = components.length;
        if (values.length != n || multisets.length != n) {
            throw new PayloadFormatException(name() + " has " + n + " components, got " + values.length + " values and "
                    + multisets.length + " multisets");
        }
        long[] out = values.clone();
        Object[] sets = anyMultiset ? new Object[n] : null;
        Object[] objects = anyObject ? new Object[n] : null;
        for (int i = 0; i < n; i++) {
            if (!multiset[i]) {
                continue;
            }
            boolean ok = form[i] == OBJECT_SET
                    ? multisets[i] instanceof ObjectMultiset m
                            && m.chain().equals(((ChainComponent) components[i]).chain())
                    : multisets[i] instanceof ValueMultiset;
            if (!ok) {
                throw new PayloadFormatException("component " + i + " of " + name() + " needs a multiset of "
                        + (form[i] == OBJECT_SET ? ((ChainComponent) components[i]).chain() : "longs") + ", got "
                        + multisets[i]);
            }
            setMultiset(i, multisets[i], out, sets, objects);
        }
        return Product.wrap(out, sets, objects);
    }

    @Override
    public Product parse(String text) {
        List<String> parts = components(text, name(), components.length);
        int n = components.length;
        long[] out = new long[n];
        Object[] sets = anyMultiset ? new Object[n] : null;
        Object[] objects = anyObject ? new Object[n] : null;
        long[] element = new long[1];
        Object[] object = new Object[1];
        for (int i = 0; i < n; i++) {
            String part = parts.get(i).trim();
            if (!multiset[i]) {
                out[i] = ((LongComponent) components[i]).parse(part);
                continue;
            }
            boolean braces = part.startsWith("{");
            if (braces && !part.endsWith("}")) {
                throw new PayloadFormatException(
                        "not a " + name() + " payload: '" + text + "': a multiset ends with '}'");
            }
            List<String[]> tokens = braces
                    ? multisetTokens(part.substring(1, part.length() - 1), text, name())
                    : List.<String[]>of(new String[] {part, null});
            Object m = form[i] == OBJECT_SET
                    ? ObjectMultiset.empty(((ChainComponent) components[i]).chain())
                    : ValueMultiset.empty();
            for (String[] token : tokens) {
                long k = multiplicity(token[1], token[0] + "x" + token[1], text, name());
                boolean zero = parseElement(i, token[0], element, object);
                if (zero && braces) {
                    throw new PayloadFormatException(
                            "not a " + name() + " payload: '" + text + "': " + token[0] + " is no value of a multiset");
                }
                if (!zero) {
                    m = m instanceof ObjectMultiset o
                            ? o.add(element[0], object[0], k)
                            : ((ValueMultiset) m).add(element[0], k);
                }
            }
            setMultiset(i, m, out, sets, objects);
        }
        return Product.wrap(out, sets, objects);
    }

    /**
     * Parses an element of multiset component {@code i} into {@code element[0]} (encoded as the multiset
     * keeps it) and {@code object[0]}; returns whether it is the component's zero.
     */
    private boolean parseElement(int i, String text, long[] element, Object[] object) {
        if (components[i] instanceof ChainComponent c) {
            c.chain().parse(text, element, object, 0);
            return element[0] == c.zero();
        }
        LongComponent c = (LongComponent) components[i];
        long v = c.parse(text);
        element[0] = encode(c, v);
        object[0] = null;
        return v == c.zero();
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
