package io.flinkivm.core.semiring;

import org.apache.flink.annotation.PublicEvolving;

/**
 * The arctic semiring (R ∪ {-∞}, max, +, -∞, 0): a join adds scores and a projection keeps the best.
 * Payloads are {@link Double}s; NaN and +∞ are not in the semiring. -0.0 is stored as 0.0. Text form:
 * a decimal without a trailing ".0" and {@code -inf} for -∞ (parsing also accepts {@code -infinity}).
 * A sum of two finite scores beyond the double range throws {@link PayloadOverflowException}.
 */
@PublicEvolving
public final class MaxPlusSemiring extends TropicalSemiring {
    private static final long serialVersionUID = 1L;

    public static final MaxPlusSemiring INSTANCE = new MaxPlusSemiring();

    private MaxPlusSemiring() {
        super("max-plus", false);
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
