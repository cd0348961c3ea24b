package io.flinkivm.flink.usersemiring;

import java.util.Objects;

/**
 * A link capacity: a non-negative amount, or unlimited. A plain immutable Java class with no Flink
 * type information of its own, so Flink treats it as a generic type (Kryo).
 */
public final class Capacity {
    public static final Capacity NONE = new Capacity(0);
    public static final Capacity UNLIMITED = new Capacity(Long.MAX_VALUE);

    private final long amount;

    public Capacity(long amount) {
        if (amount < 0) {
            throw new IllegalArgumentException("a capacity is not negative, got " + amount);
        }
        this.amount = amount;
    }

    /** The amount; {@link Long#MAX_VALUE} for unlimited. */
    public long amount() {
        return amount;
    }

    public Capacity max(Capacity o) {
        return amount >= o.amount ? this : o;
    }

    public Capacity min(Capacity o) {
        return amount <= o.amount ? this : o;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Capacity c && c.amount == amount;
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(amount);
    }

    @Override
    public String toString() {
        return amount == Long.MAX_VALUE ? "unlimited" : Long.toString(amount);
    }
}
