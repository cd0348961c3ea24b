package io.flinkivm.core.semiring;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The provenance semiring (N[X], +, ·, 0, 1) of Green, Karvounarakis and Tannen: a payload is a
 * {@link Polynomial} over variables that name input facts, and says how a result tuple was derived.
 * Text form: the polynomial's, e.g. {@code 2*r1*s2^2 + t3}. Not idempotent: x + x = 2*x.
 */
@PublicEvolving
public final class ProvenanceSemiring implements Semiring<Polynomial> {
    private static final long serialVersionUID = 1L;

    public static final ProvenanceSemiring INSTANCE = new ProvenanceSemiring();

    private static final Set<SemiringProperty> PROPERTIES =
            Collections.unmodifiableSet(EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.POSITIVE));

    private ProvenanceSemiring() {}

    @Override
    public String name() {
        return "provenance";
    }

    @Override
    public Polynomial zero() {
        return Polynomial.ZERO;
    }

    @Override
    public Polynomial one() {
        return Polynomial.ONE;
    }

    @Override
    public Polynomial plus(Polynomial a, Polynomial b) {
        return a.plus(b);
    }

    @Override
    public Polynomial times(Polynomial a, Polynomial b) {
        return a.times(b);
    }

    @Override
    public boolean isZero(Polynomial a) {
        return a.isZero();
    }

    @Override
    public Polynomial parse(String text) {
        return Polynomial.parse(text);
    }

    @Override
    public String format(Polynomial value) {
        return value.toString();
    }

    @Override
    public Class<Polynomial> payloadClass() {
        return Polynomial.class;
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
