package io.flinkivm.flink.usersemiring;

import io.flinkivm.core.semiring.PayloadFormatException;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.SemiringProperty;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The bottleneck (max-min) semiring over capacities: a join keeps the narrowest link, a projection
 * the widest path. Zero is no capacity, one is unlimited. Commutative, idempotent and positive
 * (max(a,b) = 0 only if both are 0; min(a,b) = 0 only if one is 0). A user's semiring, not a
 * built-in: its payloads need Kryo or type information of their own.
 */
public final class BottleneckSemiring implements Semiring<Capacity> {
    private static final long serialVersionUID = 1L;
    public static final BottleneckSemiring INSTANCE = new BottleneckSemiring();
    private static final Set<SemiringProperty> PROPERTIES = Collections.unmodifiableSet(
            EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.IDEMPOTENT, SemiringProperty.POSITIVE));

    private BottleneckSemiring() {}

    @Override
    public String name() {
        return "bottleneck";
    }

    @Override
    public Capacity zero() {
        return Capacity.NONE;
    }

    @Override
    public Capacity one() {
        return Capacity.UNLIMITED;
    }

    @Override
    public Capacity plus(Capacity a, Capacity b) {
        return a.max(b);
    }

    @Override
    public Capacity times(Capacity a, Capacity b) {
        return a.min(b);
    }

    @Override
    public Capacity parse(String text) {
        if ("unlimited".equals(text)) {
            return Capacity.UNLIMITED;
        }
        try {
            return new Capacity(Long.parseLong(text));
        } catch (IllegalArgumentException e) {
            throw new PayloadFormatException(
                    "not a capacity: '" + text + "'; expected a non-negative integer or 'unlimited'");
        }
    }

    @Override
    public String format(Capacity value) {
        return value.toString();
    }

    @Override
    public Class<Capacity> payloadClass() {
        return Capacity.class;
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
