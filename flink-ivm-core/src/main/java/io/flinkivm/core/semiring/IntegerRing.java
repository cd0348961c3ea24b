package io.flinkivm.core.semiring;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.LongBinaryOperator;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The integers (Z, +, ·, 0, 1): bags whose multiplicities may be negative, COUNT and SUM under deletes.
 * Payloads are {@link Long}s; a sum, product or negation beyond 64 bits throws
 * {@link PayloadOverflowException} instead of wrapping. Name {@code integer}; text form a decimal
 * number with an optional sign, e.g. {@code -3}. A row can give up part of its multiplicity: 3 can
 * lose 1 to 3 ({@link Ring#withinMultiplicity}).
 */
@PublicEvolving
public final class IntegerRing implements Ring<Long> {
    private static final long serialVersionUID = 1L;

    public static final IntegerRing INSTANCE = new IntegerRing();

    private static final Long ZERO = 0L;
    private static final Long ONE = 1L;
    private static final Set<SemiringProperty> PROPERTIES =
            Collections.unmodifiableSet(EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.RING));

    private IntegerRing() {}

    @Override
    public String name() {
        return "integer";
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
        return LongComponent.INTEGER.plus(a, b);
    }

    /** {@link #plus} on unboxed values: the product's integer component's exact sum. */
    @Override
    public LongBinaryOperator unboxedPlus() {
        return LongComponent.INTEGER::plus;
    }

    @Override
    public Long times(Long a, Long b) {
        return LongComponent.INTEGER.times(a, b);
    }

    @Override
    public LongBinaryOperator unboxedTimes() {
        return LongComponent.INTEGER::times;
    }

    @Override
    public Long negate(Long a) {
        if (a == Long.MIN_VALUE) {
            throw new PayloadOverflowException("integer overflow: -(" + a + ") exceeds 64 bits");
        }
        return -a;
    }

    @Override
    public boolean canRemove(Long present, Long removed) {
        return present != 0L && Ring.withinMultiplicity(present, removed);
    }

    @Override
    public boolean isZero(Long a) {
        return a == 0L;
    }

    @Override
    public Long parse(String text) {
        String t = Decimals.requireText(text, name());
        int start = t.startsWith("-") || t.startsWith("+") ? 1 : 0;
        boolean digits = t.length() > start;
        for (int i = start; digits && i < t.length(); i++) {
            char c = t.charAt(i);
            digits = c >= '0' && c <= '9';
        }
        if (!digits) {
            throw new PayloadFormatException("not an integer: '" + text + "'");
        }
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new PayloadFormatException("not an integer: '" + text + "' exceeds 64 bits");
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

    private Object readResolve() {
        return INSTANCE;
    }
}
