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
        java.util.List<Component> components = s.components();
        long[] values = new long[components.size()];
        Object[] objects = new Object[components.size()];
        values[0] = 1 + r.nextInt(5);
        for (int i = 1; i < values.length; i++) {
            if (components.get(i) instanceof ChainComponent chain) {
                element(chain, r, values, objects, i);
                continue;
            }
            LongComponent c = (LongComponent) components.get(i);
            boolean doubles = c == LongComponent.MIN_DOUBLE || c == LongComponent.MAX_DOUBLE;
            values[i] =
                    r.nextInt(8) == 0 ? c.zero() : doubles ? LongComponent.bits(smallDyadic(r)) : r.nextInt(61) - 20;
            if (c == LongComponent.NATURAL && values[i] < 0) {
                values[i] = -values[i];
            }
        }
        return s.payload(values, objects);
    }

    /** An element of a chain component: its zero or its one one time in eight each, else a small value. */
    private static void element(ChainComponent c, Random r, long[] values, Object[] objects, int i) {
        int pick = r.nextInt(8);
        objects[i] = null;
        if (pick == 0) {
            values[i] = c.zero();
        } else if (pick == 1) {
            values[i] = c.one();
        } else {
            chainValue(c.chain(), r, values, objects, i);
        }
    }

    private static final String[] STRINGS = {
        "", "a", "ab", "b", "B", "é", "\uFF21", "\uD841\uDF0E", "it's", "a;b", "x y", "top", "{x}", "z"
    };

    /** A value of {@code chain} (few distinct ones, so that equal values meet), as {@code values[i]} and {@code objects[i]}. */
    public static void chainValue(Chain chain, Random r, long[] values, Object[] objects, int i) {
        objects[i] = null;
        values[i] = Chain.VALUE;
        switch (chain.kind()) {
            case INTEGER -> values[i] = r.nextInt(41) - 20;
            case DECIMAL -> values[i] = r.nextInt(2001) - 1000;
            case DOUBLE -> values[i] = Chain.encodeDouble(smallDyadic(r));
            case BOOLEAN -> values[i] = r.nextInt(2);
            case DATE -> values[i] = r.nextInt(61) - 30 + (r.nextBoolean() ? 19_000 : 0);
            case TIME -> values[i] = (r.nextInt(86_400) * 1_000L + r.nextInt(1000)) * 1_000_000L;
            case TIMESTAMP -> values[i] = (r.nextInt(2001) - 1000) * 1_000_003L;
            case STRING -> objects[i] = STRINGS[r.nextInt(STRINGS.length)];
            case BIG_DECIMAL ->
                objects[i] = r.nextInt(4) == 0
                        ? new java.math.BigDecimal("12345678901234567890123" + r.nextInt(10))
                                .movePointLeft(chain.scale())
                        : java.math.BigDecimal.valueOf(r.nextInt(2001) - 1000, chain.scale());
            case TIMESTAMP_NANOS ->
                objects[i] = java.time.LocalDateTime.of(1969 + r.nextInt(3), 12, 31, 23, 59, 59)
                        .plusNanos(r.nextInt(1000) * 999_999L);
        }
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
        java.util.List<Component> components = s.components();
        for (int i = 0; i < components.size(); i++) {
            text.append(i == 0 ? "" : ";");
            if (!s.isMultiset(i)) {
                text.append(i == 0 ? r.nextInt(9) - 3 : r.nextInt(61) - 20);
                continue;
            }
            if (components.get(i) instanceof ChainComponent chain) {
                text.append(chainMultiset(chain, r));
                continue;
            }
            LongComponent c = (LongComponent) components.get(i);
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

    /** The text of 0 to 3 elements (values, or the one) with multiplicities in [-2, 3] other than 0. */
    private static String chainMultiset(ChainComponent c, Random r) {
        StringBuilder text = new StringBuilder("{");
        long[] values = new long[1];
        Object[] objects = new Object[1];
        for (int k = r.nextInt(4); k > 0; k--) {
            if (r.nextInt(5) == 0) {
                values[0] = c.one();
                objects[0] = null;
            } else {
                chainValue(c.chain(), r, values, objects, 0);
            }
            int multiplicity = r.nextInt(5) - 2;
            text.append(c.chain().format(values[0], objects[0]))
                    .append('x')
                    .append(multiplicity >= 0 ? multiplicity + 1 : multiplicity)
                    .append(' ');
        }
        return text.append('}').toString();
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
