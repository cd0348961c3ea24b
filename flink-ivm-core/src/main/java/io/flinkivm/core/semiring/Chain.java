package io.flinkivm.core.semiring;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A chain: a totally ordered set of values with a top ⊤ above and a bottom ⊥ below all of them, the
 * domain of a {@link ChainComponent} (MIN or MAX of a column of one SQL type). Most kinds keep their
 * values in a {@code long} that orders as a signed long, so that no value is boxed: integers, decimals
 * of up to 18 digits (unscaled, at the chain's scale), doubles (an order-preserving encoding of their
 * bits), booleans (0 and 1), dates (days since 1970-01-01), times (nanoseconds of the day) and
 * timestamps of up to microseconds (microseconds since 1970-01-01T00:00). In a long, {@link #BOTTOM}
 * ({@link Long#MIN_VALUE}) is ⊥ and {@link #TOP} ({@link Long#MAX_VALUE}) is ⊤; values lie strictly
 * between.
 *
 * <p>Strings, wider decimals and timestamps of up to nanoseconds are objects ({@link Kind#holdsObjects}):
 * a {@link String} in Unicode code point order (the order of its UTF-8 bytes, which is how Flink SQL
 * compares STRING values; Java's {@link String#compareTo} orders UTF-16 units and differs for characters
 * beyond U+FFFF), a {@link BigDecimal} at the chain's scale, a {@link LocalDateTime}. Where a component's
 * value is an object its {@code long} is a tag: {@link #BOTTOM}, {@link #VALUE} (the object holds the
 * value) or {@link #TOP}, so that tags order as the values they stand for.
 *
 * @param kind how values are kept and ordered
 * @param scale a decimal's digits after the point, else 0
 * @param name the type as the query's language spells it, e.g. {@code DECIMAL(12, 2)}, for plans
 */
@PublicEvolving
public record Chain(Kind kind, int scale, String name) implements Serializable {

    /** ⊥ in a long: below every value. */
    public static final long BOTTOM = Long.MIN_VALUE;
    /** ⊤ in a long: above every value. */
    public static final long TOP = Long.MAX_VALUE;
    /** The tag of a value kept as an object. */
    public static final long VALUE = 0L;

    /** The most digits of a decimal kept as an unscaled long. */
    public static final int MAX_LONG_DIGITS = 18;

    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    /** How a chain's values are kept and ordered. */
    public enum Kind {
        /** Signed integers. */
        INTEGER,
        /** Decimals of up to 18 digits, as unscaled longs at the chain's scale. */
        DECIMAL,
        /** Finite doubles, as {@link #encodeDouble}; -0.0 is 0.0. */
        DOUBLE,
        /** false (0) below true (1). */
        BOOLEAN,
        /** Days since 1970-01-01. */
        DATE,
        /** Nanoseconds of the day. */
        TIME,
        /** Microseconds since 1970-01-01T00:00, without time zone. */
        TIMESTAMP,
        /** Strings in code point order. */
        STRING,
        /** Decimals of any precision, as {@link BigDecimal}s at the chain's scale. */
        BIG_DECIMAL,
        /** Timestamps of up to nanoseconds, as {@link LocalDateTime}s. */
        TIMESTAMP_NANOS;

        /** Whether values are objects (with a tag in the long) rather than longs. */
        public boolean holdsObjects() {
            return ordinal() >= STRING.ordinal();
        }
    }

    public Chain {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
        if (scale < 0 || scale != 0 && kind != Kind.DECIMAL && kind != Kind.BIG_DECIMAL) {
            throw new IllegalArgumentException("a scale of " + scale + " for a chain of " + kind);
        }
    }

    /** A chain of {@code kind} without a scale, named {@code name}. */
    public static Chain of(Kind kind, String name) {
        return new Chain(kind, 0, name);
    }

    /**
     * The chain of DECIMAL(precision, scale): unscaled longs up to {@link #MAX_LONG_DIGITS} digits, else
     * {@link BigDecimal}s.
     */
    public static Chain decimal(int precision, int scale, String name) {
        return new Chain(precision <= MAX_LONG_DIGITS ? Kind.DECIMAL : Kind.BIG_DECIMAL, scale, name);
    }

    /** Whether values are objects (with a tag in the long) rather than longs. */
    public boolean holdsObjects() {
        return kind.holdsObjects();
    }

    // ---- longs ----

    /** Whether {@code v} is a value (not ⊤ or ⊥) of this chain kept in a long. */
    public boolean isLongValue(long v) {
        if (v == BOTTOM || v == TOP) {
            return false;
        }
        return switch (kind) {
            case BOOLEAN -> v == 0 || v == 1;
            case DOUBLE -> Double.isFinite(decodeDouble(v)) && encodeDouble(decodeDouble(v)) == v;
            case TIME -> v >= 0 && v < NANOS_PER_DAY;
            case STRING, BIG_DECIMAL, TIMESTAMP_NANOS -> false;
            default -> true;
        };
    }

    /** A double as a long that orders as the doubles do (-0.0 as 0.0). */
    public static long encodeDouble(double d) {
        long bits = Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
        return bits < 0 ? bits ^ Long.MAX_VALUE : bits;
    }

    /** The double of {@link #encodeDouble}. */
    public static double decodeDouble(long v) {
        return Double.longBitsToDouble(v < 0 ? v ^ Long.MAX_VALUE : v);
    }

    /**
     * A timestamp's microseconds since 1970-01-01T00:00.
     *
     * @throws ArithmeticException if it has a fraction of a microsecond or lies beyond 64 bits of them
     */
    public static long micros(LocalDateTime t) {
        if (t.getNano() % 1000 != 0) {
            throw new ArithmeticException(t + " is more precise than a microsecond");
        }
        return Math.addExact(
                Math.multiplyExact(t.toEpochSecond(ZoneOffset.UTC), MICROS_PER_SECOND), t.getNano() / 1000);
    }

    /** The timestamp of {@link #micros}. */
    public static LocalDateTime timestamp(long micros) {
        return LocalDateTime.ofEpochSecond(
                Math.floorDiv(micros, MICROS_PER_SECOND),
                (int) Math.floorMod(micros, MICROS_PER_SECOND) * 1000,
                ZoneOffset.UTC);
    }

    // ---- objects ----

    /**
     * Checks that {@code value} is a value of this object chain: a String, a BigDecimal at the scale, a
     * LocalDateTime; returns it.
     *
     * @throws PayloadFormatException if it is not
     */
    public Object checkObject(Object value) {
        boolean ok = switch (kind) {
            case STRING -> value instanceof String;
            case BIG_DECIMAL -> value instanceof BigDecimal d && d.scale() == scale;
            case TIMESTAMP_NANOS -> value instanceof LocalDateTime;
            default -> false;
        };
        if (!ok) {
            throw new PayloadFormatException("not a value of " + name + " (" + kind + "): "
                    + (value == null ? "null" : value + " (" + value.getClass().getSimpleName() + ")"));
        }
        return value;
    }

    /** The order of two values of this object chain (neither null). */
    public int compareObjects(Object a, Object b) {
        return switch (kind) {
            case STRING -> compareCodePoints((String) a, (String) b);
            case BIG_DECIMAL -> ((BigDecimal) a).compareTo((BigDecimal) b);
            case TIMESTAMP_NANOS -> ((LocalDateTime) a).compareTo((LocalDateTime) b);
            default -> throw new IllegalStateException("a chain of " + kind + " keeps no objects");
        };
    }

    /**
     * The order of two strings by their code points (the order of their UTF-8 bytes): as UTF-16 units,
     * except that a surrogate (half of a character beyond U+FFFF) is above U+E000..U+FFFF.
     */
    public static int compareCodePoints(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                return codePointRank(x) - codePointRank(y);
            }
        }
        return a.length() - b.length();
    }

    /** Moves U+D800..U+DFFF above U+E000..U+FFFF and keeps the order within each. */
    private static int codePointRank(char c) {
        if (c < 0xD800) {
            return c;
        }
        return c >= 0xE000 ? c - 0x800 : c + 0x2000;
    }

    /**
     * The order of two elements given as (tag or long value, object): for a chain of longs the longs, for
     * one of objects the tags, then the objects of two values.
     */
    public int compare(long a, Object x, long b, Object y) {
        if (a != b || x == null || y == null) {
            return Long.compare(a, b);
        }
        return compareObjects(x, y);
    }

    // ---- text ----

    /** The text of an element: {@code bottom}, {@code top}, or the value (a string quoted as in SQL). */
    public String format(long v, Object object) {
        if (v == BOTTOM) {
            return "bottom";
        }
        if (v == TOP) {
            return "top";
        }
        return switch (kind) {
            case INTEGER -> Long.toString(v);
            case DECIMAL -> BigDecimal.valueOf(v, scale).toPlainString();
            case DOUBLE -> Decimals.format(decodeDouble(v));
            case BOOLEAN -> v == 1 ? "true" : "false";
            case DATE -> LocalDate.ofEpochDay(v).toString();
            case TIME -> LocalTime.ofNanoOfDay(v).toString();
            case TIMESTAMP -> timestamp(v).toString();
            case STRING -> "'" + ((String) object).replace("'", "''") + "'";
            case BIG_DECIMAL -> ((BigDecimal) object).toPlainString();
            case TIMESTAMP_NANOS -> object.toString();
        };
    }

    /**
     * Parses {@link #format}'s text (trimmed) into {@code longs[i]} and {@code objects[i]} (null but for
     * an object value).
     *
     * @throws PayloadFormatException if it is not an element of this chain
     */
    public void parse(String text, long[] longs, Object[] objects, int i) {
        String t = text.trim();
        objects[i] = null;
        if (t.equals("bottom") || t.equals("top")) {
            longs[i] = t.equals("top") ? TOP : BOTTOM;
            return;
        }
        try {
            if (holdsObjects()) {
                longs[i] = VALUE;
                objects[i] = switch (kind) {
                    case STRING -> unquote(t);
                    case BIG_DECIMAL -> checkObject(new BigDecimal(t).setScale(scale));
                    default -> LocalDateTime.parse(t);
                };
                return;
            }
            long v = switch (kind) {
                case INTEGER -> Long.parseLong(t);
                case DECIMAL ->
                    new BigDecimal(t).setScale(scale).unscaledValue().longValueExact();
                case DOUBLE -> encodeDouble(Decimals.parseFinite(t, "a value of " + name));
                case BOOLEAN -> bool(t);
                case DATE -> LocalDate.parse(t).toEpochDay();
                case TIME -> LocalTime.parse(t).toNanoOfDay();
                default -> micros(LocalDateTime.parse(t));
            };
            if (!isLongValue(v)) {
                throw new PayloadFormatException("not a value of " + name + ": '" + text + "'");
            }
            longs[i] = v;
        } catch (NumberFormatException | ArithmeticException | DateTimeParseException e) {
            throw new PayloadFormatException("not a value of " + name + ": '" + text + "'");
        }
    }

    private static long bool(String t) {
        return switch (t) {
            case "true" -> 1;
            case "false" -> 0;
            default -> throw new NumberFormatException(t);
        };
    }

    private String unquote(String t) {
        if (t.length() < 2 || t.charAt(0) != '\'' || t.charAt(t.length() - 1) != '\'') {
            throw new PayloadFormatException("not a value of " + name + ": " + t + " (a string is quoted: 'text')");
        }
        String inner = t.substring(1, t.length() - 1);
        for (int i = 0; i < inner.length(); i++) {
            if (inner.charAt(i) == '\'' && (i + 1 == inner.length() || inner.charAt(++i) != '\'')) {
                throw new PayloadFormatException("not a value of " + name + ": " + t + " (a quote inside is doubled)");
            }
        }
        return inner.replace("''", "'");
    }

    @Override
    public String toString() {
        return name;
    }
}
