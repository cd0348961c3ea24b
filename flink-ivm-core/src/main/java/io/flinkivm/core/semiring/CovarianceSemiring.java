package io.flinkivm.core.semiring;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The covariance semiring over m features (Nikolic and Olteanu, F-IVM, Def. 9): payloads are
 * {@link CovarianceTriple}s (c, s, Q) with
 * (c1, s1, Q1) + (c2, s2, Q2) = (c1 + c2, s1 + s2, Q1 + Q2) and
 * (c1, s1, Q1) · (c2, s2, Q2) = (c1c2, c2 s1 + c1 s2, c2 Q1 + c1 Q2 + s1 s2ᵀ + s2 s1ᵀ);
 * zero (0, 0, 0), one (1, 0, 0). Name {@code covariance:m}; text form {@code c;s1 s2;q11 q12 q21 q22},
 * and parsing also accepts a bare feature vector {@code x1 x2} meaning {@link CovarianceTriple#lift}.
 *
 * <p>Positive for the payloads it admits, those built from lifted tuples by + and ·: their counts
 * are ≥ 1 unless the payload is zero, so a sum or a product is zero only if an operand is.
 * {@link CovarianceTriple#of} rejects a count-0 triple that is not zero. The same operations with
 * counts that may cancel (deletes) are the {@link CovarianceRing}, a ring with a name of its own: here
 * positivity is what lets the insert-only plan's Boolean border keep each root tuple once.
 */
@PublicEvolving
public final class CovarianceSemiring extends CovarianceAlgebra {
    private static final long serialVersionUID = 1L;

    private static final Set<SemiringProperty> PROPERTIES =
            Collections.unmodifiableSet(EnumSet.of(SemiringProperty.COMMUTATIVE, SemiringProperty.POSITIVE));

    private CovarianceSemiring(int m) {
        super(m);
    }

    /** The covariance semiring over {@code m ≥ 1} features. */
    public static CovarianceSemiring of(int m) {
        return new CovarianceSemiring(m);
    }

    @Override
    public String name() {
        return "covariance:" + m;
    }

    @Override
    public CovarianceTriple parse(String text) {
        return CovarianceTriple.parse(text, m, false);
    }

    @Override
    public Set<SemiringProperty> properties() {
        return PROPERTIES;
    }

    @Override
    boolean admit(CovarianceTriple t) {
        return t.isNatural();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CovarianceSemiring && ((CovarianceSemiring) o).m == m;
    }

    @Override
    public int hashCode() {
        return Integer.hashCode(m) + 0x636f76;
    }
}
