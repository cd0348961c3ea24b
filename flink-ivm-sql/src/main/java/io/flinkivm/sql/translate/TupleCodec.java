package io.flinkivm.sql.translate;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * How the values of one variable of the query (a class of values that equalities make equal, so every
 * atom that holds it agrees on the form) are held in tuples, by their SQL type. Tuples hold
 * {@link Long}, {@link String}, {@link Double} and {@link Boolean}; each type keeps its own value:
 *
 * <ul>
 *   <li>TINYINT, SMALLINT, INT, BIGINT ({@link Form#INTEGER}): the value, a {@link Long} (so that INT and
 *       BIGINT columns join);</li>
 *   <li>DECIMAL ({@link Form#DECIMAL_UNITS}): a {@link Long} count of units of 10^-{@link #scale()}, the
 *       largest scale of the variable's columns, where every column's digits before the point plus that
 *       scale are at most 18 (so that 1.5 and 1.50 are one value); else ({@link Form#DECIMAL_TEXT}) the
 *       canonical text without trailing zeros, exact but slower;</li>
 *   <li>FLOAT, DOUBLE ({@link Form#FLOATING}): a finite {@link Double};</li>
 *   <li>CHAR, VARCHAR, STRING and BOOLEAN: the {@link String}, the {@link Boolean};</li>
 *   <li>DATE ({@link Form#DATE}): days since 1970-01-01, TIME ({@link Form#TIME}): milliseconds of the
 *       day (Flink's own representations), TIMESTAMP ({@link Form#TIMESTAMP}): units of
 *       10^-{@link #scale()} seconds since 1970-01-01T00:00, microseconds (scale 6) where every column's
 *       precision is at most 6, else nanoseconds (scale 9, years 1677 to 2262); all {@link Long}s.</li>
 * </ul>
 *
 * @param form how values are held
 * @param scale the decimal scale of {@link Form#DECIMAL_UNITS}, the digits of a second of
 *     {@link Form#TIMESTAMP}, else 0
 */
@Internal
public record TupleCodec(Form form, int scale) implements Serializable {

    /** The forms of tuple values. */
    public enum Form {
        INTEGER,
        DECIMAL_UNITS,
        DECIMAL_TEXT,
        FLOATING,
        STRING,
        BOOLEAN,
        DATE,
        TIME,
        TIMESTAMP
    }

    /** The most decimal digits a {@code long} holds whatever they are. */
    static final int LONG_DIGITS = 18;

    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    /** The codec of a variable whose values are of {@code type} alone. */
    public static TupleCodec of(SqlType type) {
        return of(List.of(type));
    }

    /**
     * The codec of a variable whose values are of {@code types} (one family: {@link SqlType#joinsWith}).
     *
     * @throws IllegalArgumentException for a type no tuple holds, or types of several families
     */
    public static TupleCodec of(List<SqlType> types) {
        SqlType first = types.get(0);
        for (SqlType t : types) {
            if (!t.joinsWith(first)) {
                throw new IllegalArgumentException("one variable of types " + first + " and " + t);
            }
        }
        return switch (first.kind()) {
            case TINYINT, SMALLINT, INT, BIGINT -> new TupleCodec(Form.INTEGER, 0);
            case DECIMAL -> {
                int scale = 0;
                int digits = 0;
                for (SqlType t : types) {
                    scale = Math.max(scale, t.scale());
                    digits = Math.max(digits, t.precision() - t.scale());
                }
                yield digits + scale <= LONG_DIGITS
                        ? new TupleCodec(Form.DECIMAL_UNITS, scale)
                        : new TupleCodec(Form.DECIMAL_TEXT, 0);
            }
            case FLOAT, DOUBLE -> new TupleCodec(Form.FLOATING, 0);
            case STRING -> new TupleCodec(Form.STRING, 0);
            case BOOLEAN -> new TupleCodec(Form.BOOLEAN, 0);
            case DATE -> new TupleCodec(Form.DATE, 0);
            case TIME -> new TupleCodec(Form.TIME, 0);
            case TIMESTAMP -> {
                int precision = 0;
                for (SqlType t : types) {
                    precision = Math.max(precision, t.precision());
                }
                yield new TupleCodec(Form.TIMESTAMP, precision <= 6 ? 6 : 9);
            }
            case UNSUPPORTED -> throw new IllegalArgumentException("values of type " + first + " are not supported");
        };
    }

    /**
     * The tuple value of a non-null value of {@link SqlValues}' domain, of an expression of {@code type}.
     *
     * @throws IllegalArgumentException with the reason if the value does not fit {@code type} or this form
     */
    public Object encode(Object value, SqlType type) {
        if (value == null) {
            throw new IllegalArgumentException("NULL; flink-ivm's tuples have no NULLs");
        }
        switch (form) {
            case INTEGER -> {
                if (value instanceof Long v) {
                    if (!type.kind().holds(v)) {
                        throw new IllegalArgumentException(v + " is out of range for " + type);
                    }
                    return v;
                }
            }
            case DECIMAL_UNITS, DECIMAL_TEXT -> {
                if (value instanceof BigDecimal d) {
                    fitDecimal(d, type);
                    if (form == Form.DECIMAL_TEXT) {
                        return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
                    }
                    // Exact: the value fits its type, whose digits fit this scale within 18 digits.
                    return d.setScale(scale, RoundingMode.UNNECESSARY)
                            .unscaledValue()
                            .longValueExact();
                }
            }
            case FLOATING -> {
                if (value instanceof Double d) {
                    return finite(d);
                }
            }
            case STRING -> {
                if (value instanceof String) {
                    return value;
                }
            }
            case BOOLEAN -> {
                if (value instanceof Boolean) {
                    return value;
                }
            }
            case DATE -> {
                if (value instanceof LocalDate d) {
                    return d.toEpochDay();
                }
            }
            case TIME -> {
                if (value instanceof LocalTime t) {
                    // Flink keeps a TIME in milliseconds; finer digits are cut off as Flink cuts them.
                    return t.toNanoOfDay() / 1_000_000L;
                }
            }
            case TIMESTAMP -> {
                if (value instanceof LocalDateTime t) {
                    return timestamp(t);
                }
            }
        }
        throw new IllegalArgumentException(
                "expected a value of type " + type + ", got " + value.getClass().getSimpleName());
    }

    /** A timestamp in this codec's units, exactly. */
    private long timestamp(LocalDateTime t) {
        long seconds = t.toEpochSecond(ZoneOffset.UTC);
        int nanos = t.getNano();
        if (scale == 6) {
            if (nanos % 1000 != 0) {
                throw new IllegalArgumentException(t + " has more than 6 digits of a second");
            }
            return seconds * MICROS_PER_SECOND + nanos / 1000;
        }
        try {
            return Math.addExact(Math.multiplyExact(seconds, NANOS_PER_SECOND), nanos);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(
                    t + " is outside the TIMESTAMP(9) range flink-ivm holds (the years 1677 to 2262)");
        }
    }

    /**
     * The value of {@code column}'s type (as a Flink {@code Row} holds it: Integer for INT, BigDecimal
     * with the column's scale for DECIMAL, LocalDate for DATE, ...) of a tuple value of this codec;
     * null for {@link SqlType#NULL_TUPLE_VALUE}.
     */
    public Object decode(Object tupleValue, SqlType column) {
        if (SqlType.NULL_TUPLE_VALUE.equals(tupleValue)) {
            return null;
        }
        return switch (form) {
            case INTEGER -> {
                long v = (Long) tupleValue;
                yield switch (column.kind()) {
                    case TINYINT -> (byte) v;
                    case SMALLINT -> (short) v;
                    case INT -> (int) v;
                    default -> v;
                };
            }
            case DECIMAL_UNITS ->
                BigDecimal.valueOf((Long) tupleValue, scale).setScale(column.scale(), RoundingMode.UNNECESSARY);
            case DECIMAL_TEXT -> new BigDecimal((String) tupleValue).setScale(column.scale(), RoundingMode.UNNECESSARY);
            case FLOATING ->
                column.kind() == SqlType.Kind.FLOAT ? (Object) (float) (double) (Double) tupleValue : tupleValue;
            case STRING, BOOLEAN -> tupleValue;
            case DATE -> LocalDate.ofEpochDay((Long) tupleValue);
            case TIME -> LocalTime.ofNanoOfDay((Long) tupleValue * 1_000_000L);
            case TIMESTAMP -> {
                long v = (Long) tupleValue;
                long perSecond = scale == 6 ? MICROS_PER_SECOND : NANOS_PER_SECOND;
                long nanos = Math.floorMod(v, perSecond) * (NANOS_PER_SECOND / perSecond);
                yield LocalDateTime.ofEpochSecond(Math.floorDiv(v, perSecond), (int) nanos, ZoneOffset.UTC);
            }
        };
    }

    /** A decimal fits {@code type}: at most its scale of decimals and its digits before the point. */
    static void fitDecimal(BigDecimal d, SqlType type) {
        if (type.kind() != SqlType.Kind.DECIMAL) {
            return;
        }
        BigDecimal stripped = d.stripTrailingZeros();
        if (stripped.scale() > type.scale()) {
            throw new IllegalArgumentException(
                    d.toPlainString() + " has more than " + type.scale() + " decimal places for " + type);
        }
        if (stripped.precision() - stripped.scale() > type.precision() - type.scale()) {
            throw new IllegalArgumentException(d.toPlainString() + " has more than " + (type.precision() - type.scale())
                    + " digits before the decimal point for " + type);
        }
    }

    private static Double finite(double v) {
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException(v + " is not a finite number");
        }
        return v == 0.0 ? 0.0 : v; // -0.0 joins with 0.0
    }

    /** For explain and messages: {@code DECIMAL in units of 10^-2}, {@code DATE as days}, ... */
    @Override
    public String toString() {
        return switch (form) {
            case INTEGER -> "integer";
            case DECIMAL_UNITS -> "decimal in units of 10^-" + scale;
            case DECIMAL_TEXT -> "decimal as text";
            case FLOATING -> "double";
            case STRING -> "string";
            case BOOLEAN -> "boolean";
            case DATE -> "date in days";
            case TIME -> "time in milliseconds";
            case TIMESTAMP -> "timestamp in " + (scale == 6 ? "microseconds" : "nanoseconds");
        };
    }
}
