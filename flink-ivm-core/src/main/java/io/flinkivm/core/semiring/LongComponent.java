package io.flinkivm.core.semiring;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A commutative semiring on unboxed {@code long}s: one component of a {@link ProductSemiring}.
 * Exact components overflow with {@link PayloadOverflowException}, never wrap; the double
 * components keep a double's bits in the long.
 */
@PublicEvolving
public enum LongComponent implements Component {
    /** The natural numbers (N, +, ·, 0, 1): counts. */
    NATURAL("natural"),
    /** The integers (Z, +, ·, 0, 1): exact sums that may be negative, in units of 10^-scale. */
    INTEGER("integer"),
    /** (Z ∪ {+∞}, min, +, +∞, 0): exact minimums; {@link Long#MAX_VALUE} stands for +∞. */
    MIN("min"),
    /** (Z ∪ {−∞}, max, +, −∞, 0): exact maximums; {@link Long#MIN_VALUE} stands for −∞. */
    MAX("max"),
    /** Doubles under (min, +, +∞, 0), kept as their bits. */
    MIN_DOUBLE("min-double"),
    /** Doubles under (max, +, −∞, 0), kept as their bits. */
    MAX_DOUBLE("max-double");

    private static final long PLUS_INFINITY_BITS = Double.doubleToLongBits(Double.POSITIVE_INFINITY);
    private static final long MINUS_INFINITY_BITS = Double.doubleToLongBits(Double.NEGATIVE_INFINITY);
    private static final long ZERO_BITS = Double.doubleToLongBits(0.0);

    private final String label;

    LongComponent(String label) {
        this.label = label;
    }

    /** The component's name in a product's name, e.g. {@code min}. */
    @Override
    public String label() {
        return label;
    }

    /** The label; for MIN and MAX (exact or double), which a ring keeps as multisets, with {@code -multiset}. */
    @Override
    public String ringLabel() {
        return this == NATURAL || this == INTEGER ? label : label + "-multiset";
    }

    /** The component whose {@link #label()} is {@code label}, or null. */
    public static LongComponent byLabel(String label) {
        for (LongComponent c : values()) {
            if (c.label.equals(label)) {
                return c;
            }
        }
        return null;
    }

    public long zero() {
        return switch (this) {
            case NATURAL, INTEGER -> 0L;
            case MIN -> Long.MAX_VALUE;
            case MAX -> Long.MIN_VALUE;
            case MIN_DOUBLE -> PLUS_INFINITY_BITS;
            case MAX_DOUBLE -> MINUS_INFINITY_BITS;
        };
    }

    public long one() {
        return switch (this) {
            case NATURAL, INTEGER -> 1L;
            case MIN, MAX -> 0L;
            case MIN_DOUBLE, MAX_DOUBLE -> ZERO_BITS;
        };
    }

    /** a + b in this component. */
    public long plus(long a, long b) {
        return switch (this) {
            case NATURAL, INTEGER -> add(a, b);
            case MIN -> Math.min(a, b);
            case MAX -> Math.max(a, b);
            case MIN_DOUBLE -> bits(Math.min(value(a), value(b)));
            case MAX_DOUBLE -> bits(Math.max(value(a), value(b)));
        };
    }

    /** a · b in this component. */
    public long times(long a, long b) {
        return switch (this) {
            case NATURAL, INTEGER -> multiply(a, b);
            case MIN, MAX -> a == zero() || b == zero() ? zero() : add(a, b);
            case MIN_DOUBLE, MAX_DOUBLE -> bits(value(a) + value(b));
        };
    }

    /** Whether {@code a} is a value of this component (a natural number is not negative). */
    public boolean accepts(long a) {
        return switch (this) {
            case NATURAL -> a >= 0;
            case MIN_DOUBLE -> !Double.isNaN(value(a)) && value(a) != Double.NEGATIVE_INFINITY;
            case MAX_DOUBLE -> !Double.isNaN(value(a)) && value(a) != Double.POSITIVE_INFINITY;
            default -> true;
        };
    }

    /** The text form: the number, {@code inf}/{@code -inf} for the infinities. */
    public String format(long a) {
        return switch (this) {
            case NATURAL, INTEGER -> Long.toString(a);
            case MIN -> a == Long.MAX_VALUE ? "inf" : Long.toString(a);
            case MAX -> a == Long.MIN_VALUE ? "-inf" : Long.toString(a);
            case MIN_DOUBLE, MAX_DOUBLE -> formatDouble(value(a));
        };
    }

    private static String formatDouble(double d) {
        return d == Double.POSITIVE_INFINITY ? "inf" : d == Double.NEGATIVE_INFINITY ? "-inf" : Decimals.format(d);
    }

    /**
     * Parses the text form.
     *
     * @throws PayloadFormatException if it is not a value of this component
     */
    public long parse(String text) {
        String t = text.trim();
        long v;
        try {
            v = switch (this) {
                case NATURAL, INTEGER -> Long.parseLong(t);
                case MIN -> t.equals("inf") ? Long.MAX_VALUE : Long.parseLong(t);
                case MAX -> t.equals("-inf") ? Long.MIN_VALUE : Long.parseLong(t);
                case MIN_DOUBLE, MAX_DOUBLE -> bits(parseDouble(t));
            };
        } catch (NumberFormatException e) {
            throw new PayloadFormatException("not a " + label + " value: '" + text + "'");
        }
        if (!accepts(v)) {
            throw new PayloadFormatException("not a " + label + " value: '" + text + "'");
        }
        return v;
    }

    /** The double kept in a double component's long. */
    public static double value(long bits) {
        return Double.longBitsToDouble(bits);
    }

    /** A double as a double component's long ({@code -0.0} as {@code 0.0}, so that equal values are equal). */
    public static long bits(double value) {
        return Double.doubleToLongBits(value == 0.0 ? 0.0 : value);
    }

    private static double parseDouble(String t) {
        return switch (t) {
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            default -> {
                double d = Double.parseDouble(t);
                if (Double.isInfinite(d) || Double.isNaN(d)) {
                    throw new NumberFormatException(t);
                }
                yield d;
            }
        };
    }

    private long add(long a, long b) {
        long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0) {
            throw new PayloadOverflowException(label + " overflow: " + a + " + " + b + " exceeds 64 bits");
        }
        if (this == MIN && sum == Long.MAX_VALUE || this == MAX && sum == Long.MIN_VALUE) {
            throw new PayloadOverflowException(label + " overflow: " + a + " + " + b + " reaches the infinity");
        }
        return sum;
    }

    private long multiply(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) {
            return lo;
        }
        throw new PayloadOverflowException(label + " overflow: " + a + " * " + b + " exceeds 64 bits");
    }
}
