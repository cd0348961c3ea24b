package io.flinkivm.core.semiring;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.LongBinaryOperator;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The natural numbers (N, +, ·, 0, 1): bag semantics, payloads count derivations. Payloads are
 * non-negative {@link Long}s; an operation whose result exceeds 64 bits throws
 * {@link PayloadOverflowException} instead of wrapping. Text form: a decimal number, e.g. {@code 42}.
 */
@PublicEvolving
public final class NaturalSemiring implements Semiring<Long> {
    private static final long serialVersionUID = 1L;

    public static final NaturalSemiring INSTANCE = new NaturalSemiring();

    private static final Long ZERO = 0L;
    private static final Long ONE = 1L;
    private static final Set<SemiringProperty> PROPERTIES =
            Collections.unmodifiableSet(EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.POSITIVE));

    private NaturalSemiring() {}

    @Override
    public String name() {
        return "natural";
    }

    @Override
    public Long zero() {
        return ZERO;
    }

    @Override
    public Long one() {
        return ONE;
    }

    @Override
    public Long plus(Long a, Long b) {
        return sum(a, b);
    }

    /** {@link #plus} on unboxed values. */
    @Override
    public LongBinaryOperator unboxedPlus() {
        return NaturalSemiring::sum;
    }

    private static long sum(long x, long y) {
        if ((x | y) < 0) {
            throw notNatural(x < 0 ? x : y);
        }
        try {
            return Math.addExact(x, y);
        } catch (ArithmeticException e) {
            throw new PayloadOverflowException("natural-number overflow: " + x + " + " + y + " exceeds 64 bits");
        }
    }

    @Override
    public Long times(Long a, Long b) {
        return product(a, b);
    }

    /** {@link #times} on unboxed values. */
    @Override
    public LongBinaryOperator unboxedTimes() {
        return NaturalSemiring::product;
    }

    private static long product(long x, long y) {
        if ((x | y) < 0) {
            throw notNatural(x < 0 ? x : y);
        }
        try {
            return Math.multiplyExact(x, y);
        } catch (ArithmeticException e) {
            throw new PayloadOverflowException("natural-number overflow: " + x + " * " + y + " exceeds 64 bits");
        }
    }

    @Override
    public boolean isZero(Long a) {
        return a == 0L;
    }

    @Override
    public Long parse(String text) {
        String t = Decimals.requireText(text, name());
        int n = t.length();
        if (n == 0) {
            throw new PayloadFormatException("not a natural number: '" + text + "'");
        }
        for (int i = 0; i < n; i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                throw new PayloadFormatException("not a natural number: '" + text + "'");
            }
        }
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new PayloadFormatException("not a natural number: '" + text + "' exceeds 64 bits");
        }
    }

    @Override
    public String format(Long value) {
        return Long.toString(value);
    }

    @Override
    public Class<Long> payloadClass() {
        return Long.class;
    }

    @Override
    public Set<SemiringProperty> properties() {
        return PROPERTIES;
    }

    @Override
    public String toString() {
        return name();
    }

    private static PayloadFormatException notNatural(long x) {
        return new PayloadFormatException("not a natural number: " + x);
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
