package io.flinkivm.core.semiring;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What min-plus and max-plus share: payloads are {@link Double}s, the product is + (a finite sum
 * beyond the double range throws {@link PayloadOverflowException}), the sum keeps the better of
 * the two, zero is the infinity on the worse side and one is 0. NaN and the other infinity are not
 * in the semiring; -0.0 is stored as 0.0.
 */
abstract sealed class TropicalSemiring implements Semiring<Double> permits MinPlusSemiring, MaxPlusSemiring {
    private static final long serialVersionUID = 1L;

    private static final Double ONE = 0.0;
    private static final Set<SemiringProperty> PROPERTIES = Collections.unmodifiableSet(
            EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.IDEMPOTENT, SemiringProperty.POSITIVE));

    private final String name;
    private final Double zero;
    private final boolean keepsMinimum;

    TropicalSemiring(String name, boolean keepsMinimum) {
        this.name = name;
        this.keepsMinimum = keepsMinimum;
        this.zero = keepsMinimum ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Double zero() {
        return zero;
    }

    @Override
    public final Double one() {
        return ONE;
    }

    @Override
    public final Double plus(Double a, Double b) {
        double x = a;
        double y = b;
        return Decimals.normalise(keepsMinimum == (x <= y) ? x : y);
    }

    @Override
    public final Double times(Double a, Double b) {
        double x = a;
        double y = b;
        double r = x + y;
        if (Double.isInfinite(r) && Double.isFinite(x) && Double.isFinite(y)) {
            throw new PayloadOverflowException(name + " overflow: " + x + " + " + y + " exceeds the double range");
        }
        return Decimals.normalise(r);
    }

    @Override
    public final boolean isZero(Double a) {
        return a.doubleValue() == zero.doubleValue();
    }

    @Override
    public final Double parse(String text) {
        String t = Decimals.requireText(text, name);
        boolean plusInf = Decimals.isPositiveInfinity(t);
        if (plusInf || Decimals.isNegativeInfinity(t)) {
            if (plusInf == keepsMinimum) {
                return zero;
            }
            throw new PayloadFormatException("not a " + name + " value: '" + text + "'; " + (plusInf ? "+inf" : "-inf")
                    + " is not in the semiring (its zero is " + zeroText() + ")");
        }
        if (Decimals.isNaN(t)) {
            throw new PayloadFormatException("not a " + name + " value: '" + text + "'; NaN is not in the semiring");
        }
        return Decimals.parseFinite(t, "a " + name + " value (a number or " + zeroText() + ")");
    }

    private String zeroText() {
        return keepsMinimum ? "inf" : "-inf";
    }

    @Override
    public final String format(Double value) {
        return isZero(value) ? zeroText() : Decimals.format(value);
    }

    @Override
    public final Class<Double> payloadClass() {
        return Double.class;
    }

    @Override
    public final Set<SemiringProperty> properties() {
        return PROPERTIES;
    }

    @Override
    public final String toString() {
        return name;
    }
}
