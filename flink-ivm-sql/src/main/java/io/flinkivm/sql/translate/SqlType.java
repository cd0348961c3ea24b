package io.flinkivm.sql.translate;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import org.apache.flink.annotation.Internal;

/**
 * The SQL type of a column, as far as the SQL front end needs it: how a value of the column becomes a
 * tuple value (tuples hold {@link Long}, {@link String}, {@link Double} and {@link Boolean} only), and
 * how a tuple value becomes a value of the column again.
 *
 * <ul>
 *   <li>TINYINT, SMALLINT, INT, BIGINT: a {@link Long} (so that INT and BIGINT columns join);</li>
 *   <li>DECIMAL(p, s): its canonical text, without trailing zeros ({@code 1.5} for 1.50), so that
 *       decimals of different scales join;</li>
 *   <li>DOUBLE, FLOAT: a {@link Double} (finite only);</li>
 *   <li>CHAR, VARCHAR, STRING: the {@link String};</li>
 *   <li>BOOLEAN: the {@link Boolean};</li>
 *   <li>DATE, TIME(p) and TIMESTAMP(p): the ISO text ({@code 2024-05-01}, {@code 10:15:30},
 *       {@code 2024-05-01T10:15:30}).</li>
 * </ul>
 * Any other type is {@link Kind#UNSUPPORTED}: a table may have such columns as long as the query does
 * not use them. SQL's NULL, in a column that is grouped or selected but joins nothing, is the tuple
 * value {@link #NULL_TUPLE_VALUE} (an {@link Integer}, which no type above uses), so that NULLs group
 * together as SQL groups them.
 *
 * @param kind the family of the type
 * @param name the type as SQL spells it, e.g. {@code DECIMAL(15, 2)}
 * @param precision DECIMAL's, TIME's and TIMESTAMP's precision, else 0
 * @param scale DECIMAL's scale, else 0
 */
@Internal
public record SqlType(Kind kind, String name, int precision, int scale) implements Serializable {

    /** The families of column types. */
    public enum Kind {
        TINYINT(Byte.MIN_VALUE, Byte.MAX_VALUE),
        SMALLINT(Short.MIN_VALUE, Short.MAX_VALUE),
        INT(Integer.MIN_VALUE, Integer.MAX_VALUE),
        BIGINT(Long.MIN_VALUE, Long.MAX_VALUE),
        DECIMAL,
        FLOAT,
        DOUBLE,
        STRING,
        BOOLEAN,
        DATE,
        TIME,
        TIMESTAMP,
        UNSUPPORTED;

        private final long min;
        private final long max;

        Kind() {
            this(0, 0);
        }

        Kind(long min, long max) {
            this.min = min;
            this.max = max;
        }

        boolean isInteger() {
            return this == TINYINT || this == SMALLINT || this == INT || this == BIGINT;
        }
    }

    public static final SqlType BIGINT = new SqlType(Kind.BIGINT, "BIGINT", 0, 0);
    public static final SqlType DOUBLE = new SqlType(Kind.DOUBLE, "DOUBLE", 0, 0);
    public static final SqlType STRING = new SqlType(Kind.STRING, "STRING", 0, 0);
    public static final SqlType BOOLEAN = new SqlType(Kind.BOOLEAN, "BOOLEAN", 0, 0);

    /** The tuple value of SQL's NULL. */
    public static final Object NULL_TUPLE_VALUE = Integer.valueOf(0);

    /** The largest DECIMAL precision (Flink's). */
    public static final int MAX_PRECISION = 38;

    public SqlType {
        if (kind == Kind.DECIMAL && (precision < 1 || precision > MAX_PRECISION || scale < 0 || scale > precision)) {
            throw new IllegalArgumentException("DECIMAL(" + precision + ", " + scale + ") needs 1 <= precision <= "
                    + MAX_PRECISION + " and 0 <= scale <= precision");
        }
    }

    /** A type without parameters. */
    public static SqlType of(Kind kind) {
        return switch (kind) {
            case BIGINT -> BIGINT;
            case DOUBLE -> DOUBLE;
            case STRING -> STRING;
            case BOOLEAN -> BOOLEAN;
            case DECIMAL -> throw new IllegalArgumentException("DECIMAL needs a precision and a scale");
            case TIMESTAMP -> timestamp(6);
            case TIME -> time(0);
            default -> new SqlType(kind, kind.name(), 0, 0);
        };
    }

    public static SqlType decimal(int precision, int scale) {
        return new SqlType(Kind.DECIMAL, "DECIMAL(" + precision + ", " + scale + ")", precision, scale);
    }

    /** TIME(p) without time zone; {@link #precision()} is p (Flink keeps milliseconds). */
    public static SqlType time(int precision) {
        return new SqlType(Kind.TIME, "TIME(" + precision + ")", precision, 0);
    }

    /** TIMESTAMP(p) without time zone; {@link #precision()} is p. */
    public static SqlType timestamp(int precision) {
        return new SqlType(Kind.TIMESTAMP, "TIMESTAMP(" + precision + ")", precision, 0);
    }

    /** A type this front end does not handle, e.g. {@code ARRAY<INT>}. */
    public static SqlType unsupported(String name) {
        return new SqlType(Kind.UNSUPPORTED, name, 0, 0);
    }

    /** A type spelled {@code name} that keeps its spelling (e.g. {@code VARCHAR(10)} for the STRING family). */
    public SqlType named(String spelling) {
        return new SqlType(kind, spelling, precision, scale);
    }

    /** Whether values of this type are exact integers or decimals. */
    public boolean isExactNumeric() {
        return kind.isInteger() || kind == Kind.DECIMAL;
    }

    public boolean isInteger() {
        return kind.isInteger();
    }

    /** Whether values of this type are approximate numbers. */
    public boolean isApproximate() {
        return kind == Kind.DOUBLE || kind == Kind.FLOAT;
    }

    public boolean isNumeric() {
        return isExactNumeric() || isApproximate();
    }

    /** Digits after the decimal point of an exact value (0 for integers). */
    public int exactScale() {
        return kind == Kind.DECIMAL ? scale : 0;
    }

    /** Whether two columns of these types can be equal as tuple values (an equality joins them). */
    public boolean joinsWith(SqlType other) {
        return family() == other.family();
    }

    private int family() {
        return switch (kind) {
            case TINYINT, SMALLINT, INT, BIGINT -> 0;
            case FLOAT, DOUBLE -> 1;
            default -> 2 + kind.ordinal();
        };
    }

    /**
     * The tuple value of a column value as Flink's Table API gives it (Integer for INT, BigDecimal
     * for DECIMAL, LocalDate for DATE, ...).
     *
     * @throws IllegalArgumentException with a reason if the value does not fit
     */
    public Object toTupleValue(Object value) {
        if (value == null) {
            throw new IllegalArgumentException("NULL; flink-ivm's tuples have no NULLs");
        }
        switch (kind) {
            case TINYINT, SMALLINT, INT, BIGINT -> {
                if (value instanceof Long
                        || value instanceof Integer
                        || value instanceof Short
                        || value instanceof Byte) {
                    return inRange(((Number) value).longValue());
                }
            }
            case DECIMAL -> {
                if (value instanceof BigDecimal d) {
                    return canonical(fitDecimal(d));
                }
            }
            case FLOAT, DOUBLE -> {
                if (value instanceof Double || value instanceof Float) {
                    return finite(((Number) value).doubleValue());
                }
            }
            case STRING -> {
                if (value instanceof String s) {
                    return s;
                }
            }
            case BOOLEAN -> {
                if (value instanceof Boolean b) {
                    return b;
                }
            }
            case DATE -> {
                if (value instanceof LocalDate d) {
                    return d.toString();
                }
            }
            case TIME -> {
                if (value instanceof LocalTime t) {
                    return t.toString();
                }
            }
            case TIMESTAMP -> {
                if (value instanceof LocalDateTime t) {
                    return t.toString();
                }
            }
            default -> throw new IllegalArgumentException("values of type " + name + " are not supported");
        }
        throw new IllegalArgumentException(
                "expected a value of type " + name + ", got " + value.getClass().getSimpleName());
    }

    /** The column value of a tuple value made by {@link #toTupleValue} (of this type or one it joins with). */
    public Object fromTupleValue(Object tupleValue) {
        if (NULL_TUPLE_VALUE.equals(tupleValue)) {
            return null;
        }
        return switch (kind) {
            case TINYINT -> (byte) (long) (Long) tupleValue;
            case SMALLINT -> (short) (long) (Long) tupleValue;
            case INT -> (int) (long) (Long) tupleValue;
            case BIGINT -> tupleValue;
            case DECIMAL -> new BigDecimal((String) tupleValue).setScale(scale);
            case FLOAT -> (float) (double) (Double) tupleValue;
            case DOUBLE, STRING, BOOLEAN -> tupleValue;
            case DATE -> LocalDate.parse((String) tupleValue);
            case TIME -> LocalTime.parse((String) tupleValue);
            case TIMESTAMP -> LocalDateTime.parse((String) tupleValue);
            case UNSUPPORTED -> throw new IllegalStateException("no values of type " + name);
        };
    }

    private Long inRange(long v) {
        if (v < kind.min || v > kind.max) {
            throw new IllegalArgumentException(v + " is out of range for " + name);
        }
        return v;
    }

    private BigDecimal fitDecimal(BigDecimal d) {
        BigDecimal stripped = d.stripTrailingZeros();
        if (stripped.scale() > scale) {
            throw new IllegalArgumentException(
                    d.toPlainString() + " has more than " + scale + " decimal places for " + name);
        }
        if (stripped.precision() - stripped.scale() > precision - scale) {
            throw new IllegalArgumentException(d.toPlainString() + " has more than " + (precision - scale)
                    + " digits before the decimal point for " + name);
        }
        return d;
    }

    static String canonical(BigDecimal d) {
        return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }

    private static Double finite(double v) {
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException(v + " is not a finite number");
        }
        return v == 0.0 ? 0.0 : v; // -0.0 joins with 0.0
    }

    @Override
    public String toString() {
        return name;
    }
}
