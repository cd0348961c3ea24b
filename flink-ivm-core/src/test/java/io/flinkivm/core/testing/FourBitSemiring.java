package io.flinkivm.core.testing;

import io.flinkivm.core.semiring.PayloadFormatException;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.SemiringProperty;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Random;
import java.util.Set;

/**
 * Subsets of {0,1,2,3} as 4-bit masks with union as + and intersection as ·: zero {} and one
 * {0,1,2,3}. Commutative and idempotent but not positive, since {0} · {1} = {}: a test semiring on
 * which the Boolean border would be unsound, so the planner must take the fallback.
 */
public final class FourBitSemiring implements Semiring<Integer> {
    private static final long serialVersionUID = 1L;

    public static final FourBitSemiring INSTANCE = new FourBitSemiring();

    private static final Set<SemiringProperty> PROPERTIES =
            Collections.unmodifiableSet(EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.IDEMPOTENT));

    private FourBitSemiring() {}

    @Override
    public String name() {
        return "four-bit";
    }

    @Override
    public Integer zero() {
        return 0;
    }

    @Override
    public Integer one() {
        return 0b1111;
    }

    @Override
    public Integer plus(Integer a, Integer b) {
        return a | b;
    }

    @Override
    public Integer times(Integer a, Integer b) {
        return a & b;
    }

    @Override
    public Integer parse(String text) {
        try {
            int v = Integer.parseInt(text.trim());
            if (v >= 0 && v <= 0b1111) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new PayloadFormatException("not a 4-bit set: '" + text + "'; expected a number from 0 to 15");
    }

    @Override
    public String format(Integer value) {
        return Integer.toString(value);
    }

    @Override
    public Class<Integer> payloadClass() {
        return Integer.class;
    }

    @Override
    public Set<SemiringProperty> properties() {
        return PROPERTIES;
    }

    /** A random mask, zero one time in sixteen; mostly one or two bits so that products often vanish. */
    public static Integer random(Random r) {
        return r.nextBoolean() ? 1 << r.nextInt(4) : r.nextInt(16);
    }

    @Override
    public String toString() {
        return name();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
