package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.CovarianceTriple;
import io.flinkivm.core.semiring.Polynomial;

/** Test values: tuples with every value type, awkward strings, and payloads of the built-in semirings. */
final class Samples {
    private Samples() {}

    /** 70,000 characters: beyond the 65,535-byte limit of {@code writeUTF}. */
    static final String LONG_STRING = "αβγ-0123456789".repeat(5_000);

    /** Umlauts, CJK, an emoji (a surrogate pair), NUL, an unpaired surrogate, a right-to-left mark. */
    static final String NON_ASCII = "Grüße 日本語 😀 \u0000 \uD800 \u200F";

    static Tuple[] tuples() {
        Object[] wide = new Object[300];
        for (int i = 0; i < wide.length; i++) {
            wide[i] = i % 2 == 0 ? (Object) (long) i : "v" + i;
        }
        return new Tuple[] {
            Tuple.EMPTY,
            Tuple.of(1L),
            Tuple.of("a", 2L, 3, 4.5, true, false),
            Tuple.of(Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE),
            Tuple.of(Double.NaN, -0.0, 0.0, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE),
            Tuple.of(""),
            Tuple.of(NON_ASCII, "x"),
            Tuple.of(LONG_STRING),
            Tuple.of(wide),
        };
    }

    static Polynomial[] polynomials() {
        Polynomial r1 = Polynomial.variable("r1");
        Polynomial s2 = Polynomial.variable("s_2");
        return new Polynomial[] {
            Polynomial.ZERO,
            Polynomial.ONE,
            Polynomial.constant(7),
            Polynomial.constant(Long.MAX_VALUE),
            r1,
            r1.plus(s2).times(r1.plus(s2)).times(Polynomial.constant(3)).plus(Polynomial.ONE),
            Polynomial.parse("x^2147483647 + 9223372036854775807*y*z"),
        };
    }

    static CovarianceTriple[] triples2() {
        CovarianceTriple a = CovarianceTriple.lift(1.5, -2);
        CovarianceTriple b = CovarianceTriple.lift(1e150, 0.1);
        return new CovarianceTriple[] {
            CovarianceTriple.zero(2),
            CovarianceTriple.one(2),
            a,
            a.plus(b),
            a.times(b).plus(CovarianceTriple.one(2)),
        };
    }
}
