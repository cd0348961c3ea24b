package io.flinkivm.core.semiring;

import java.io.Serializable;
import java.util.Set;
import java.util.function.LongBinaryOperator;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A commutative semiring (K, +, ·, 0, 1) whose elements annotate tuples.
 *
 * <p>Implementations are immutable and serializable (they travel inside a plan to Flink tasks).
 * Payload objects must have value semantics: {@code equals} and {@code hashCode} agree with
 * semiring equality, so that equal payloads are equal objects.
 *
 * @param <T> the payload type
 */
@PublicEvolving
public interface Semiring<T> extends Serializable {

    /** Short name used on the command line and in plans, e.g. {@code natural}. */
    String name();

    /** The additive identity. */
    T zero();

    /** The multiplicative identity. */
    T one();

    /** a + b. */
    T plus(T a, T b);

    /** a · b. */
    T times(T a, T b);

    /** Whether {@code a} is the additive identity. */
    default boolean isZero(T a) {
        return zero().equals(a);
    }

    /**
     * Parses a payload from its text form.
     *
     * @throws PayloadFormatException if the text is not a payload of this semiring
     */
    T parse(String text);

    /** The text form of a payload; {@code parse(format(x))} equals {@code x}. */
    String format(T value);

    /** The Java class of the payloads. */
    Class<T> payloadClass();

    /** Algebraic properties this semiring declares; must contain {@link SemiringProperty#COMMUTATIVE}. */
    Set<SemiringProperty> properties();

    /**
     * For a semiring whose payloads are {@link Long}s and whose sum depends on the two longs alone: that
     * sum on unboxed values (with the same checks and exceptions as {@link #plus}). Long-lived state can
     * then keep payloads as primitives instead of a new object per update (which, stored into an
     * object that has been alive for long, costs the garbage collector far more than the addition).
     * Null (the default) for every other semiring.
     */
    default LongBinaryOperator unboxedPlus() {
        return null;
    }

    /**
     * The product on unboxed values where {@link #unboxedPlus} is the sum (same checks and exceptions as
     * {@link #times}), so that reading a result from unboxed payloads makes one object, not one per
     * factor. Null (the default) for every other semiring.
     */
    default LongBinaryOperator unboxedTimes() {
        return null;
    }

    /**
     * For a semiring whose payloads are a few longs that add componentwise: that sum in place, on an
     * array a long-lived holder owns ({@link InPlaceSum}). Null (the default) for every other semiring.
     */
    default InPlaceSum<T> inPlaceSum() {
        return null;
    }

    /** Whether this semiring declares {@code property}. */
    default boolean has(SemiringProperty property) {
        return properties().contains(property);
    }
}
