package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.SemiringProperty;
import java.math.BigInteger;
import java.util.EnumSet;
import java.util.Set;

/** A user's own semiring: unbounded natural numbers, a payload class flink-ivm does not know. */
final class BigNaturalSemiring implements Semiring<BigInteger> {
    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "big-natural";
    }

    @Override
    public BigInteger zero() {
        return BigInteger.ZERO;
    }

    @Override
    public BigInteger one() {
        return BigInteger.ONE;
    }

    @Override
    public BigInteger plus(BigInteger a, BigInteger b) {
        return a.add(b);
    }

    @Override
    public BigInteger times(BigInteger a, BigInteger b) {
        return a.multiply(b);
    }

    @Override
    public BigInteger parse(String text) {
        return new BigInteger(text.trim());
    }

    @Override
    public String format(BigInteger value) {
        return value.toString();
    }

    @Override
    public Class<BigInteger> payloadClass() {
        return BigInteger.class;
    }

    @Override
    public Set<SemiringProperty> properties() {
        return EnumSet.of(SemiringProperty.COMMUTATIVE);
    }
}
