package io.flinkivm.core.semiring;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A commutative ring: a {@link Semiring} in which every payload {@code a} has an additive inverse
 * {@code −a}, so that a delete is the insert of the inverse payload and a view entry whose payload
 * returns to zero can be dropped. The rung above {@link Semiring} of the algebra ladder (as DBSP's
 * semigroup → monoid → group → ring); rings declare {@link SemiringProperty#RING}, and only rings do.
 *
 * <p>A ring is not positive (a + (−a) = 0 with a ≠ 0), so the insert-only Boolean border does not
 * apply; the planner gives rings the plans that keep track of payloads returning to zero.
 *
 * @param <T> the payload type
 */
@PublicEvolving
public interface Ring<T> extends Semiring<T> {

    /** −a, with a + (−a) = 0; exact (an overflow throws {@link PayloadOverflowException}, as + does). */
    T negate(T a);

    /** a − b = a + (−b). */
    default T minus(T a, T b) {
        return plus(a, negate(b));
    }

    /**
     * Whether a row annotated with {@code present} can give up {@code removed}: a delete (or the old half
     * of an update) takes away part of what the row holds, never more, and never from a row that is not
     * there (its payload zero). Rings with a multiplicity (the integers, the count of a covariance triple
     * or of a product) require the multiplicity removed to have the sign of the present one and at most
     * its size; by default, a ring only requires the row to be present.
     */
    default boolean canRemove(T present, T removed) {
        return !isZero(present);
    }

    /**
     * Whether multiplicity {@code removed} is part of {@code present}: zero, or of the same sign and at
     * most as large (a row with multiplicity 3 can give up 1, 2 or 3 of it, not 4 nor −1). For the
     * rings whose payloads carry a multiplicity.
     */
    static boolean withinMultiplicity(long present, long removed) {
        return removed == 0 || (present > 0 ? removed > 0 && removed <= present : removed < 0 && removed >= present);
    }
}
