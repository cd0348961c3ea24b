package io.flinkivm.core.semiring;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The Boolean semiring ({false, true}, ∨, ∧, false, true): set semantics. Text form {@code true} /
 * {@code false}; parsing also accepts any letter case and {@code 1} / {@code 0}.
 */
@PublicEvolving
public final class BooleanSemiring implements Semiring<Boolean> {
    private static final long serialVersionUID = 1L;

    public static final BooleanSemiring INSTANCE = new BooleanSemiring();

    private static final Set<SemiringProperty> PROPERTIES = Collections.unmodifiableSet(
            EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.IDEMPOTENT, SemiringProperty.POSITIVE));

    private BooleanSemiring() {}

    @Override
    public String name() {
        return "boolean";
    }

    @Override
    public Boolean zero() {
        return Boolean.FALSE;
    }

    @Override
    public Boolean one() {
        return Boolean.TRUE;
    }

    @Override
    public Boolean plus(Boolean a, Boolean b) {
        return a || b;
    }

    @Override
    public Boolean times(Boolean a, Boolean b) {
        return a && b;
    }

    @Override
    public boolean isZero(Boolean a) {
        return !a;
    }

    @Override
    public Boolean parse(String text) {
        String t = Decimals.requireText(text, name());
        if (t.equalsIgnoreCase("true") || t.equals("1")) {
            return Boolean.TRUE;
        }
        if (t.equalsIgnoreCase("false") || t.equals("0")) {
            return Boolean.FALSE;
        }
        throw new PayloadFormatException("not a Boolean: '" + text + "'; expected true, false, 1 or 0");
    }

    @Override
    public String format(Boolean value) {
        return value ? "true" : "false";
    }

    @Override
    public Class<Boolean> payloadClass() {
        return Boolean.class;
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
