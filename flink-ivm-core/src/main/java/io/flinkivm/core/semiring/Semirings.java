package io.flinkivm.core.semiring;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** The built-in semirings by name, and the check applied to a user's own {@link Semiring}. */
public final class Semirings {

    private static final String COVARIANCE_PREFIX = "covariance:";
    private static final List<String> NAMES =
            List.of("natural", "boolean", "min-plus", "max-plus", "viterbi", "provenance", "covariance:<m>");

    private Semirings() {}

    /**
     * The built-in semiring called {@code name} (letter case and surrounding space ignored):
     * natural, boolean, min-plus, max-plus, viterbi, provenance, or covariance:m for m ≥ 1 features.
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
            default:
                break;
        }
        if (n.startsWith(COVARIANCE_PREFIX)) {
            String digits = n.substring(COVARIANCE_PREFIX.length());
            int m = 0;
            boolean ok = !digits.isEmpty() && digits.length() <= 6;
            for (int i = 0; ok && i < digits.length(); i++) {
                char c = digits.charAt(i);
                ok = c >= '0' && c <= '9';
                m = m * 10 + (c - '0');
            }
            if (ok && m >= 1) {
                return CovarianceSemiring.of(m);
            }
            throw new IllegalArgumentException("unknown semiring '" + name
                    + "'; covariance:<m> needs a number of features m ≥ 1, e.g. covariance:2");
        }
        throw new IllegalArgumentException("unknown semiring '" + name + "'; known: " + String.join(", ", NAMES));
    }

    /** The names {@link #byName} knows, with {@code covariance:<m>} standing for every m ≥ 1. */
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
        return s;
    }
}
