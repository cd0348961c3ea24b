package io.flinkivm.core.testing;

import io.flinkivm.core.semiring.PayloadFormatException;
import io.flinkivm.core.semiring.PayloadOverflowException;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.SemiringProperty;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Random;
import java.util.Set;

/**
 * The integers (Z, +, ·, 0, 1) as {@link Long}s with overflow checks: a commutative ring, not
 * positive since 1 + (-1) = 0. A test semiring in which payloads cancel, so tuples can vanish again.
 */
public final class IntegerRingSemiring implements Semiring<Long> {
    private static final long serialVersionUID = 1L;

    public static final IntegerRingSemiring INSTANCE = new IntegerRingSemiring();

    private static final Set<SemiringProperty> PROPERTIES =
            Collections.unmodifiableSet(EnumSet.of(SemiringProperty.COMMUTATIVE));

    private IntegerRingSemiring() {}

    @Override
    public String name() {
        return "integers";
    }

    @Override
    public Long zero() {
        return 0L;
    }

    @Override
    public Long one() {
        return 1L;
    }

    @Override
    public Long plus(Long a, Long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw new PayloadOverflowException("integer overflow: " + a + " + " + b);
        }
    }

    @Override
    public Long times(Long a, Long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw new PayloadOverflowException("integer overflow: " + a + " * " + b);
        }
    }

    @Override
    public boolean isZero(Long a) {
        return a == 0L;
    }

    @Override
    public Long parse(String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new PayloadFormatException("not an integer: '" + text + "'");
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

    /** A random integer in [-2, 2]: sums cancel often. */
    public static Long random(Random r) {
        return (long) (r.nextInt(5) - 2);
    }

    @Override
    public String toString() {
        return name();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
