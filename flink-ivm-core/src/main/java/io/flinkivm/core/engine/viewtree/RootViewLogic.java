package io.flinkivm.core.engine.viewtree;

import io.flinkivm.core.semiring.Semiring;

/**
 * A root view at the border: adds deltas to a root tuple's payload and tells when the tuple crosses
 * the border (its payload turns non-zero for the first time; insert-only, so this happens once).
 */
public final class RootViewLogic {
    private RootViewLogic() {}

    /** The payload after adding {@code delta} to {@code old} ({@code null} means zero). */
    public static <T> T add(Semiring<T> semiring, T old, T delta) {
        return old == null ? delta : semiring.plus(old, delta);
    }

    /** Whether going from {@code old} to {@code updated} makes the root tuple visible above the border. */
    public static <T> boolean crossesBorder(Semiring<T> semiring, T old, T updated) {
        return (old == null || semiring.isZero(old)) && !semiring.isZero(updated);
    }
}
