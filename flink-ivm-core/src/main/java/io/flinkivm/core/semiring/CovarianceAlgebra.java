package io.flinkivm.core.semiring;

/**
 * What the covariance semiring and the covariance ring share over m features: the operations on
 * {@link CovarianceTriple}s, zero (0, 0, 0) and one (1, 0, 0). The two differ in the triples they admit
 * ({@link #admit}) and in their names.
 */
abstract sealed class CovarianceAlgebra implements Semiring<CovarianceTriple>
        permits CovarianceSemiring, CovarianceRing {
    private static final long serialVersionUID = 1L;

    final int m;
    private final CovarianceTriple zero;
    private final CovarianceTriple one;

    CovarianceAlgebra(int m) {
        if (m < 1) {
            throw new IllegalArgumentException("the covariance semiring needs at least one feature, got m = " + m);
        }
        this.m = m;
        this.zero = CovarianceTriple.zero(m);
        this.one = CovarianceTriple.one(m);
    }

    /** The number of features m. */
    public int dimension() {
        return m;
    }

    @Override
    public CovarianceTriple zero() {
        return zero;
    }

    @Override
    public CovarianceTriple one() {
        return one;
    }

    @Override
    public CovarianceTriple plus(CovarianceTriple a, CovarianceTriple b) {
        check(a);
        check(b);
        return a.plus(b);
    }

    @Override
    public CovarianceTriple times(CovarianceTriple a, CovarianceTriple b) {
        check(a);
        check(b);
        return a.times(b);
    }

    @Override
    public boolean isZero(CovarianceTriple a) {
        return a.isZero();
    }

    @Override
    public String format(CovarianceTriple value) {
        check(value);
        return value.toString();
    }

    @Override
    public Class<CovarianceTriple> payloadClass() {
        return CovarianceTriple.class;
    }

    @Override
    public String toString() {
        return name();
    }

    /** Whether this algebra admits {@code t} (its dimension is checked apart). */
    abstract boolean admit(CovarianceTriple t);

    final void check(CovarianceTriple t) {
        if (t.dimension() != m) {
            throw new IllegalArgumentException(
                    name() + " got a covariance triple over " + t.dimension() + " features, expected " + m);
        }
        if (!admit(t)) {
            throw new IllegalArgumentException(name() + " got " + t + ", a signed triple (count " + t.count()
                    + "); its payloads are natural triples, those of covariance-ring:" + m + " are signed");
        }
    }
}
