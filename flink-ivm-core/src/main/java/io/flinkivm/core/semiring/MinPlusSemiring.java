package io.flinkivm.core.semiring;

import org.apache.flink.annotation.PublicEvolving;

/**
 * The tropical semiring (R ∪ {+∞}, min, +, +∞, 0): a payload is a cost, a join adds costs and a
 * projection keeps the cheapest. Payloads are {@link Double}s; NaN and -∞ are not in the semiring.
 * -0.0 is stored as 0.0. Text form: a decimal without a trailing ".0" ({@code 3}, {@code 2.5},
 * {@code 1.0E20}) and {@code inf} for +∞; parsing also accepts {@code +inf} and {@code infinity}.
 * A sum of two finite costs beyond the double range throws {@link PayloadOverflowException}.
 */
@PublicEvolving
public final class MinPlusSemiring extends TropicalSemiring {
    private static final long serialVersionUID = 1L;

    public static final MinPlusSemiring INSTANCE = new MinPlusSemiring();

    private MinPlusSemiring() {
        super("min-plus", true);
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
