package io.flinkivm.core.semiring;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/** The built-in semirings by name, and the check applied to a user's own {@link Semiring}. */
@PublicEvolving
public final class Semirings {

    private static final String COVARIANCE_PREFIX = "covariance:";
    private static final String COVARIANCE_RING_PREFIX = "covariance-ring:";
    private static final List<String> NAMES = List.of(
            "natural",
            "boolean",
            "min-plus",
            "max-plus",
            "viterbi",
            "provenance",
            "covariance:<m>",
            "integer",
            "covariance-ring:<m>");

    private Semirings() {}

    /**
     * The built-in semiring called {@code name} (letter case and surrounding space ignored):
     * natural, boolean, min-plus, max-plus, viterbi, provenance, or covariance:m for m ≥ 1 features; and
     * the rings (for deletes) integer and covariance-ring:m.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static Semiring<?> byName(String name) {
        Objects.requireNonNull(name, "name");
        String n = name.trim().toLowerCase(Locale.ROOT);
        switch (n) {
            case "natural":
                return NaturalSemiring.INSTANCE;
            case "boolean":
                return BooleanSemiring.INSTANCE;
            case "min-plus":
                return MinPlusSemiring.INSTANCE;
            case "max-plus":
                return MaxPlusSemiring.INSTANCE;
            case "viterbi":
                return ViterbiSemiring.INSTANCE;
            case "provenance":
                return ProvenanceSemiring.INSTANCE;
            case "integer":
                return IntegerRing.INSTANCE;
            default:
                break;
        }
        if (n.startsWith(COVARIANCE_PREFIX)) {
            return CovarianceSemiring.of(features(name, n.substring(COVARIANCE_PREFIX.length()), "covariance"));
        }
        if (n.startsWith(COVARIANCE_RING_PREFIX)) {
            return CovarianceRing.of(features(name, n.substring(COVARIANCE_RING_PREFIX.length()), "covariance-ring"));
        }
        throw new IllegalArgumentException("unknown semiring '" + name + "'; known: " + String.join(", ", NAMES));
    }

    /** The number of features m ≥ 1 that {@code digits} spell, in the name {@code name} of a covariance semiring or ring. */
    private static int features(String name, String digits, String family) {
        int m = 0;
        boolean ok = !digits.isEmpty() && digits.length() <= 6;
        for (int i = 0; ok && i < digits.length(); i++) {
            char c = digits.charAt(i);
            ok = c >= '0' && c <= '9';
            m = m * 10 + (c - '0');
        }
        if (ok && m >= 1) {
            return m;
        }
        throw new IllegalArgumentException("unknown semiring '" + name + "'; " + family
                + ":<m> needs a number of features m ≥ 1, e.g. " + family + ":2");
    }

    /**
     * The ring that carries {@code semiring}'s payloads through deletes: the semiring itself if it is a
     * {@link Ring}; integer for natural; covariance-ring:m for covariance:m; for a {@link ProductSemiring}
     * the {@link ProductRing} of its components (MIN and MAX become multisets). Null for a semiring
     * without one (boolean, the tropical ones, viterbi, provenance: deletes need other means).
     */
    public static Ring<?> ringFor(Semiring<?> semiring) {
        Objects.requireNonNull(semiring, "semiring");
        if (semiring instanceof Ring<?> ring) {
            return ring;
        }
        if (semiring instanceof NaturalSemiring) {
            return IntegerRing.INSTANCE;
        }
        if (semiring instanceof CovarianceSemiring c) {
            return CovarianceRing.of(c.dimension());
        }
        if (semiring instanceof ProductSemiring p) {
            return ProductRing.of(p.components().subList(1, p.arity()));
        }
        return null;
    }

    /** The names {@link #byName} knows, with {@code <m>} standing for every m ≥ 1. */
    public static List<String> names() {
        return NAMES;
    }

    /**
     * Checks a semiring before the planner uses it, typically a user's own: it must declare
     * {@link SemiringProperty#COMMUTATIVE}, have a name and payload class, and a zero that
     * {@link Semiring#isZero} recognises. Returns {@code s}.
     *
     * @throws IllegalArgumentException naming what is missing
     */
    public static <T> Semiring<T> checked(Semiring<T> s) {
        Objects.requireNonNull(s, "semiring");
        String name = s.name();
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("semiring " + s.getClass().getName() + " has no name");
        }
        if (s.properties() == null || !s.properties().contains(SemiringProperty.COMMUTATIVE)) {
            throw new IllegalArgumentException("semiring '" + name + "' does not declare COMMUTATIVE; flink-ivm"
                    + " maintains queries over commutative semirings only (K-databases, Section 2 of the paper)");
        }
        Class<T> payloadClass = s.payloadClass();
        if (payloadClass == null) {
            throw new IllegalArgumentException("semiring '" + name + "' has no payload class");
        }
        T zero = s.zero();
        T one = s.one();
        if (!payloadClass.isInstance(zero) || !payloadClass.isInstance(one)) {
            throw new IllegalArgumentException("semiring '" + name
                    + "': zero() and one() must be non-null instances of " + payloadClass.getName());
        }
        if (!s.isZero(zero)) {
            throw new IllegalArgumentException("semiring '" + name + "': isZero(zero()) is false");
        }
        boolean ring = s instanceof Ring;
        if (ring != s.properties().contains(SemiringProperty.RING)) {
            throw new IllegalArgumentException("semiring '" + name + "' "
                    + (ring ? "is a Ring but does not declare RING" : "declares RING but does not implement Ring")
                    + "; the planner relies on the two agreeing");
        }
        if (ring && s.properties().contains(SemiringProperty.POSITIVE)) {
            throw new IllegalArgumentException(
                    "semiring '" + name + "' declares both RING and POSITIVE, which a ring cannot be: 1 + (-1) = 0");
        }
        return s;
    }
}
