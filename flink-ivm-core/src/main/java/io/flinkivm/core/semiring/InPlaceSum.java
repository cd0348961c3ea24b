package io.flinkivm.core.semiring;

import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The sum of a semiring whose payloads are a few {@code long}s (a {@link ProductSemiring} of counts,
 * sums, minima and maxima), done in place on an array that a long-lived holder of a payload owns: an
 * update writes primitives into the holder's array instead of making a new payload object, which the
 * garbage collector would have to track from an old holder to a young object on every update
 * ({@link Semiring#inPlaceSum()}).
 *
 * @param <T> the payload type
 */
@PublicEvolving
public interface InPlaceSum<T> extends Serializable {

    /** A new array of {@code payload}'s longs, for the holder to own. */
    long[] toLongs(T payload);

    /**
     * {@code target := target + delta}, as {@link Semiring#plus} adds them, in place.
     *
     * @return whether {@code target} changed
     * @throws ArithmeticException as {@link Semiring#plus} throws it (an overflow); {@code target} is then
     *     unchanged
     */
    boolean addTo(long[] target, T delta);

    /** The payload whose longs are {@code longs} (a new object; the array stays the caller's). */
    T fromLongs(long[] longs);

    /**
     * Checks that {@code longs} are a payload's, as the semiring checks a payload it is given (read from
     * state, say), without making one.
     *
     * @throws PayloadFormatException if they are not
     */
    void check(long[] longs);
}
