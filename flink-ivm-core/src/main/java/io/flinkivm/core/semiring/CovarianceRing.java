package io.flinkivm.core.semiring;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The covariance ring over m features (F-IVM, Nikolic and Olteanu, SIGMOD 2018): the operations of the
 * {@link CovarianceSemiring} on signed {@link CovarianceTriple}s, whose counts may be negative, with
 * −(c, s, Q) = (−c, −s, −Q). A delete of a tuple with features x inserts −lift(x). Name
 * {@code covariance-ring:m}; text form as the semiring's with a signed count, e.g. {@code -1;-2;-4}, or
 * a bare feature vector meaning lift(x).
 *
 * <p>Kept apart from {@code covariance:m}, which stays positive: there a count of 0 means the zero and
 * the insert-only plan relies on that; here lift(1) − lift(2) = (0, −1, −3) is a count-0 payload that is
 * not zero, and sums may cancel. A row can give up part of its count ({@link Ring#withinMultiplicity}).
 */
@PublicEvolving
public final class CovarianceRing extends CovarianceAlgebra implements Ring<CovarianceTriple> {
    private static final long serialVersionUID = 1L;

    private static final Set<SemiringProperty> PROPERTIES =
            Collections.unmodifiableSet(EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.RING));

    private CovarianceRing(int m) {
        super(m);
    }

    /** The covariance ring over {@code m ≥ 1} features. */
    public static CovarianceRing of(int m) {
        return new CovarianceRing(m);
    }

    @Override
    public String name() {
        return "covariance-ring:" + m;
    }

    @Override
    public CovarianceTriple negate(CovarianceTriple a) {
        check(a);
        return a.negate();
    }

    /** The row is present and gives up part of its count; a count-0 row (not zero) only all of itself. */
    @Override
    public boolean canRemove(CovarianceTriple present, CovarianceTriple removed) {
        if (present.isZero()) {
            return false;
        }
        return present.count() == 0
                ? removed.isZero() || removed.equals(present)
                : Ring.withinMultiplicity(present.count(), removed.count());
    }

    @Override
    public CovarianceTriple parse(String text) {
        return CovarianceTriple.parse(text, m, true);
    }

    @Override
    public Set<SemiringProperty> properties() {
        return PROPERTIES;
    }

    @Override
    boolean admit(CovarianceTriple t) {
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CovarianceRing && ((CovarianceRing) o).m == m;
    }

    @Override
    public int hashCode() {
        return Integer.hashCode(m) + 0x72696e67;
    }
}
