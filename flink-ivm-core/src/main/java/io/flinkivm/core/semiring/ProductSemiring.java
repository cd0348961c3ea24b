package io.flinkivm.core.semiring;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The direct product of a natural-number count and further {@link Component}s, operations
 * componentwise: several aggregates of one query in one payload (a SUM, a MIN of numbers, the count of
 * an AVG, a MIN of strings or dates over a {@link ChainComponent}, ...). The first component is the count of derivations, one per inserted row, so that no
 * row's payload is zero; payloads are either the zero or have a count of at least 1.
 *
 * <p>On such payloads the product is positive even where a component is not (the integers, for
 * negative sums): a sum or product has the zero count only when a summand or factor is the zero,
 * so the Boolean border of the p-hierarchical plan is sound. Text form: the components separated by
 * semicolons, e.g. {@code 1;-25;inf}.
 */
@PublicEvolving
public final class ProductSemiring extends ProductAlgebra {
    private static final long serialVersionUID = 1L;

    private static final Set<SemiringProperty> PROPERTIES =
            Collections.unmodifiableSet(EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.POSITIVE));

    /** The sum in place, where no component keeps objects; else null. */
    private final InPlaceSum<Product> inPlace;

    private ProductSemiring(Component[] components) {
        super(components, false);
        this.inPlace = anyObject ? null : new LongsSum(this);
    }

    /** The product of a count and {@code components}, in order (the count is component 0). */
    public static ProductSemiring of(List<? extends Component> components) {
        Component[] all = new Component[components.size() + 1];
        all[0] = LongComponent.NATURAL;
        for (int i = 0; i < components.size(); i++) {
            all[i + 1] = Objects.requireNonNull(components.get(i), "component");
        }
        return new ProductSemiring(all);
    }

    /**
     * The sum in place on the components' longs, where no component keeps objects (a chain of strings,
     * say); null otherwise.
     */
    @Override
    public InPlaceSum<Product> inPlaceSum() {
        return inPlace;
    }

    @Override
    public Product plus(Product a, Product b) {
        if (a.count() == 0) {
            return b;
        }
        if (b.count() == 0) {
            return a;
        }
        return combine(a, b, true);
    }

    @Override
    public Product times(Product a, Product b) {
        if (a.count() == 0 || b.count() == 0) {
            return zero();
        }
        return combine(a, b, false);
    }

    /** The zero is the only payload with count 0. */
    @Override
    public boolean isZero(Product a) {
        return a.count() == 0;
    }

    /**
     * A payload of this product from its component values.
     *
     * @throws PayloadFormatException if the arity is wrong, a value is not one of its component's, or
     *     the count is 0 but the payload is not the zero
     */
    public Product payload(long... values) {
        return payload(values.clone(), null);
    }

    /**
     * A payload of this product from its component values and objects (for the chains of objects, where
     * the value is the tag; elsewhere null), the arrays given up to the payload; {@code objects} may be
     * null where no component keeps objects.
     *
     * @throws PayloadFormatException if the arity is wrong, an element is not one of its component's, or
     *     the count is 0 but the payload is not the zero
     */
    public Product payload(long[] values, Object[] objects) {
        checkValues(values, objects);
        Product p = Product.wrap(values, null, anyObject ? objects : null);
        if (p.count() == 0 && !p.equals(zero())) {
            throw new PayloadFormatException("a payload of " + name() + " with count 0 must be the zero "
                    + format(zero()) + ", got " + format(p));
        }
        return p;
    }

    @Override
    public Product parse(String text) {
        List<String> parts = components(text, name(), components.length);
        long[] values = new long[components.length];
        Object[] objects = new Object[components.length];
        for (int i = 0; i < values.length; i++) {
            if (components[i] instanceof ChainComponent c) {
                c.chain().parse(parts.get(i), values, objects, i);
            } else {
                values[i] = ((LongComponent) components[i]).parse(parts.get(i));
            }
        }
        return payload(values, objects);
    }

    @Override
    public Set<SemiringProperty> properties() {
        return PROPERTIES;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProductSemiring p && java.util.Arrays.equals(p.components, components);
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(components);
    }

    /** {@link #plus} in place on the components' longs: counts, sums, min and max, chains of longs. */
    private static final class LongsSum implements InPlaceSum<Product> {
        private static final long serialVersionUID = 1L;
        private final ProductSemiring product;

        LongsSum(ProductSemiring product) {
            this.product = product;
        }

        @Override
        public long[] toLongs(Product payload) {
            return payload.toArray();
        }

        @Override
        public boolean addTo(long[] target, Product delta) {
            if (delta.count() == 0) {
                return false;
            }
            int n = target.length;
            if (target[0] == 0) {
                boolean changed = false;
                for (int i = 0; i < n; i++) {
                    changed |= target[i] != delta.get(i);
                    target[i] = delta.get(i);
                }
                return changed;
            }
            // First every sum that can fail (an overflow), so that a failure leaves the target as it was.
            for (int i = 0; i < n; i++) {
                sum(i, target[i], delta.get(i));
            }
            boolean changed = false;
            for (int i = 0; i < n; i++) {
                long s = sum(i, target[i], delta.get(i));
                changed |= s != target[i];
                target[i] = s;
            }
            return changed;
        }

        private long sum(int i, long a, long b) {
            Component c = product.components[i];
            return product.form[i] == LONG ? ((LongComponent) c).plus(a, b) : ((ChainComponent) c).plus(a, b);
        }

        @Override
        public Product fromLongs(long[] longs) {
            return Product.of(longs);
        }

        @Override
        public void check(long[] longs) {
            product.checkValues(longs, null);
            if (longs[0] == 0) {
                product.payload(longs.clone(), null); // the zero, or the message why not
            }
        }
    }
}
