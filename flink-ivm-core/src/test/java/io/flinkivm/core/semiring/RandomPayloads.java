package io.flinkivm.core.semiring;

import java.util.Random;

/**
 * Small random payloads for every built-in semiring, chosen so that floating-point arithmetic on
 * them stays exact (small integers, dyadic fractions) and tests may compare with {@code equals}.
 * Shared with differential tests elsewhere: keep the signatures.
 */
public final class RandomPayloads {

    private static final String[] VARIABLES = {"x", "y", "z", "r1", "s_2"};
    private static final double[] VITERBI = {0.0, 0.25, 0.5, 1.0};

    private RandomPayloads() {}

    /** A random payload of {@code s}, zero included (roughly one time in six or more). */
    public static <T> T random(Semiring<T> s, Random r) {
        Object value;
        if (s instanceof NaturalSemiring) {
            value = (long) r.nextInt(6);
        } else if (s instanceof BooleanSemiring) {
            value = r.nextBoolean();
        } else if (s instanceof MinPlusSemiring) {
            value = r.nextInt(8) == 0 ? Double.POSITIVE_INFINITY : smallDyadic(r);
        } else if (s instanceof MaxPlusSemiring) {
            value = r.nextInt(8) == 0 ? Double.NEGATIVE_INFINITY : smallDyadic(r);
        } else if (s instanceof ViterbiSemiring) {
            value = VITERBI[r.nextInt(VITERBI.length)];
        } else if (s instanceof ProvenanceSemiring) {
            value = polynomial(r);
        } else if (s instanceof CovarianceSemiring) {
            value = covariance(((CovarianceSemiring) s).dimension(), r);
        } else if (s instanceof ProductSemiring p) {
            value = product(p, r);
        } else if (s instanceof IntegerRing) {
            value = (long) (r.nextInt(11) - 5);
        } else if (s instanceof CovarianceRing c) {
            value = signedCovariance(c.dimension(), r);
        } else if (s instanceof ProductRing p) {
            value = productRing(p, r);
        } else {
            throw new IllegalArgumentException("no random payloads for semiring '" + s.name() + "'");
        }
        return s.payloadClass().cast(value);
    }

    /** A random payload of {@code s} that is not zero. */
    public static <T> T randomNonZero(Semiring<T> s, Random r) {
        while (true) {
            T value = random(s, r);
            if (!s.isZero(value)) {
                return value;
            }
        }
    }

    /**
     * Zero one time in six, else a count of 1 to 5 and small values (the component's zero one time in
     * eight): integers in [-20, 40], dyadic doubles for the double components.
     */
    private static Product product(ProductSemiring s, Random r) {
        if (r.nextInt(6) == 0) {
            return s.zero();
        }
        java.util.List<LongComponent> components = s.components();
        long[] values = new long[components.size()];
        values[0] = 1 + r.nextInt(5);
        for (int i = 1; i < values.length; i++) {
            LongComponent c = components.get(i);
            boolean doubles = c == LongComponent.MIN_DOUBLE || c == LongComponent.MAX_DOUBLE;
            values[i] =
                    r.nextInt(8) == 0 ? c.zero() : doubles ? LongComponent.bits(smallDyadic(r)) : r.nextInt(61) - 20;
            if (c == LongComponent.NATURAL && values[i] < 0) {
                values[i] = -values[i];
            }
        }
        return s.payload(values);
    }

    /**
     * Zero one time in six, else a count in [-3, 5], integers in [-20, 40], and multisets of 0 to 3 values
     * (integers in [-20, 40] or dyadic doubles) with multiplicities in [-2, 3] other than 0.
     */
    private static Product productRing(ProductRing s, Random r) {
        if (r.nextInt(6) == 0) {
            return s.zero();
        }
        StringBuilder text = new StringBuilder();
        java.util.List<LongComponent> components = s.components();
        for (int i = 0; i < components.size(); i++) {
            text.append(i == 0 ? "" : ";");
            if (!s.isMultiset(i)) {
                text.append(i == 0 ? r.nextInt(9) - 3 : r.nextInt(61) - 20);
                continue;
            }
            LongComponent c = components.get(i);
            boolean doubles = c == LongComponent.MIN_DOUBLE || c == LongComponent.MAX_DOUBLE;
            text.append('{');
            for (int k = r.nextInt(4); k > 0; k--) {
                int multiplicity = r.nextInt(5) - 2;
                text.append(doubles ? Double.toString(smallDyadic(r)) : Integer.toString(r.nextInt(61) - 20))
                        .append('x')
                        .append(multiplicity >= 0 ? multiplicity + 1 : multiplicity)
                        .append(' ');
            }
            text.append('}');
        }
        return s.parse(text.toString());
    }

    /** Zero one time in six, else ±lift(x) or ±lift(x) ± lift(y) for integer vectors in [-3, 3]^m. */
    private static CovarianceTriple signedCovariance(int m, Random r) {
        if (r.nextInt(6) == 0) {
            return CovarianceTriple.zero(m);
        }
        CovarianceTriple t = r.nextBoolean() ? lift(m, r) : lift(m, r).negate();
        if (r.nextBoolean()) {
            t = t.plus(r.nextBoolean() ? lift(m, r) : lift(m, r).negate());
        }
        return t;
    }

    /** k/4 for k in [-20, 40]: exact under + and min/max. */
    private static double smallDyadic(Random r) {
        return (r.nextInt(61) - 20) / 4.0;
    }

    /** 0 to 3 terms, coefficients 1..3, monomials of 0 to 2 variables. */
    private static Polynomial polynomial(Random r) {
        Polynomial p = Polynomial.ZERO;
        int terms = r.nextInt(4);
        for (int t = 0; t < terms; t++) {
            Polynomial term = Polynomial.constant(1 + r.nextInt(3));
            int vars = r.nextInt(3);
            for (int v = 0; v < vars; v++) {
                term = term.times(Polynomial.variable(VARIABLES[r.nextInt(VARIABLES.length)]));
            }
            p = p.plus(term);
        }
        return p;
    }

    /** Zero one time in six, else the sum of 1 or 2 lifts of integer vectors in [-3, 3]^m. */
    private static CovarianceTriple covariance(int m, Random r) {
        if (r.nextInt(6) == 0) {
            return CovarianceTriple.zero(m);
        }
        CovarianceTriple t = lift(m, r);
        if (r.nextBoolean()) {
            t = t.plus(lift(m, r));
        }
        return t;
    }

    private static CovarianceTriple lift(int m, Random r) {
        double[] x = new double[m];
        for (int i = 0; i < m; i++) {
            x[i] = r.nextInt(7) - 3;
        }
        return CovarianceTriple.lift(x);
    }
}
