package io.flinkivm.sql.translate;

import java.io.Serializable;
import org.apache.flink.annotation.Internal;

/**
 * The SQL type of a column, as far as the SQL front end needs it: its family, precision and scale, and
 * which types join with which. How a value of a type is held in a tuple is its variable's
 * {@link TupleCodec}. Any other type is {@link Kind#UNSUPPORTED}: a table may have such columns as long
 * as the query does not use them. SQL's NULL, in a column that is grouped or selected but joins
 * nothing, is the tuple value {@link #NULL_TUPLE_VALUE} (an {@link Integer}, which no codec uses), so
 * that NULLs group together as SQL groups them.
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

        /** Whether an integer type holds {@code v}. */
        boolean holds(long v) {
            return v >= min && v <= max;
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

    @Override
    public String toString() {
        return name;
    }
}
