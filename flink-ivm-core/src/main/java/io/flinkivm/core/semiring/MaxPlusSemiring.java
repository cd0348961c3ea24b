package io.flinkivm.core.semiring;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The arctic semiring (R ∪ {-∞}, max, +, -∞, 0): a join adds scores and a projection keeps the best.
 * Payloads are {@link Double}s; NaN and +∞ are not in the semiring. -0.0 is stored as 0.0. Text form:
 * a decimal without a trailing ".0" and {@code -inf} for -∞ (parsing also accepts {@code -infinity}).
 * A sum of two finite scores beyond the double range throws {@link PayloadOverflowException}.
 */
public final class MaxPlusSemiring implements Semiring<Double> {
    private static final long serialVersionUID = 1L;

    public static final MaxPlusSemiring INSTANCE = new MaxPlusSemiring();

    private static final Double ZERO = Double.NEGATIVE_INFINITY;
    private static final Double ONE = 0.0;
    private static final Set<SemiringProperty> PROPERTIES = Collections.unmodifiableSet(EnumSet.of(
            SemiringProperty.COMMUTATIVE, SemiringProperty.IDEMPOTENT, SemiringProperty.POSITIVE));

    private MaxPlusSemiring() {}

    @Override
    public String name() {
        return "max-plus";
    }

    @Override
    public Double zero() {
        return ZERO;
    }

    @Override
    public Double one() {
        return ONE;
    }

    @Override
    public Double plus(Double a, Double b) {
        double x = a;
        double y = b;
        return Decimals.normalise(x >= y ? x : y);
    }

    @Override
    public Double times(Double a, Double b) {
        double x = a;
        double y = b;
        double r = x + y;
        if (Double.isInfinite(r) && Double.isFinite(x) && Double.isFinite(y)) {
            throw new PayloadOverflowException("max-plus overflow: " + x + " + " + y + " exceeds the double range");
        }
        return Decimals.normalise(r);
    }

    @Override
    public boolean isZero(Double a) {
        return a == Double.NEGATIVE_INFINITY;
    }

    @Override
    public Double parse(String text) {
        String t = Decimals.requireText(text, name());
        if (Decimals.isNegativeInfinity(t)) {
            return ZERO;
        }
        if (Decimals.isPositiveInfinity(t)) {
            throw new PayloadFormatException("not a max-plus value: '" + text + "'; +inf is not in the semiring (its zero is -inf)");
        }
        if (Decimals.isNaN(t)) {
            throw new PayloadFormatException("not a max-plus value: '" + text + "'; NaN is not in the semiring");
        }
        return Decimals.parseFinite(t, "a max-plus value (a number or -inf)");
    }

    @Override
    public String format(Double value) {
        return value == Double.NEGATIVE_INFINITY ? "-inf" : Decimals.format(value);
    }

    @Override
    public Class<Double> payloadClass() {
        return Double.class;
    }

    @Override
    public Set<SemiringProperty> properties() {
        return PROPERTIES;
    }

    @Override
    public String toString() {
        return name();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
