package io.flinkivm.core.semiring;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The Viterbi semiring ([0, 1], max, ·, 0, 1): a payload is a confidence, a join multiplies
 * confidences and a projection keeps the most likely derivation. Payloads are {@link Double}s in
 * [0, 1]. Text form: a decimal without a trailing ".0" ({@code 1}, {@code 0.25}).
 *
 * <p>Precision limit: a product of positive confidences that underflows to 0.0 in double precision
 * becomes the semiring's zero, although mathematically it is not zero.
 */
@PublicEvolving
public final class ViterbiSemiring implements Semiring<Double> {
    private static final long serialVersionUID = 1L;

    public static final ViterbiSemiring INSTANCE = new ViterbiSemiring();

    private static final Double ZERO = 0.0;
    private static final Double ONE = 1.0;
    private static final Set<SemiringProperty> PROPERTIES = Collections.unmodifiableSet(
            EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.IDEMPOTENT, SemiringProperty.POSITIVE));

    private ViterbiSemiring() {}

    @Override
    public String name() {
        return "viterbi";
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
        return Decimals.normalise(a * b);
    }

    @Override
    public boolean isZero(Double a) {
        return a == 0.0;
    }

    @Override
    public Double parse(String text) {
        String t = Decimals.requireText(text, name());
        double x = Decimals.parseFinite(t, "a Viterbi probability (a number in [0, 1])");
        if (x < 0.0 || x > 1.0) {
            throw new PayloadFormatException("not a Viterbi probability: '" + text + "' is outside [0, 1]");
        }
        return x;
    }

    @Override
    public String format(Double value) {
        return Decimals.format(value);
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
