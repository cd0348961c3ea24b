package io.flinkivm.sql.translate;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;

/** Result values as a Flink {@code Row} holds them for a column's SQL type. */
final class SqlOutputs {
    private SqlOutputs() {}

    /**
     * A value of {@link SqlValues}' domain (Long, BigDecimal, Double, ...) as the Java value of
     * {@code type}: Integer for INT, BigDecimal with the type's scale for DECIMAL, Float for FLOAT, ...
     */
    static Object toJava(Object value, SqlType type) {
        if (value == null) {
            return null;
        }
        return switch (type.kind()) {
            case TINYINT -> (byte) exactLong(value);
            case SMALLINT -> (short) exactLong(value);
            case INT -> (int) exactLong(value);
            case BIGINT -> exactLong(value);
            case DECIMAL ->
                SqlValues.decimal(value instanceof Double d ? BigDecimal.valueOf(d) : value)
                        .setScale(type.scale(), RoundingMode.HALF_UP);
            case FLOAT -> ((Number) value).floatValue();
            case DOUBLE -> ((Number) value).doubleValue();
            default -> value;
        };
    }

    private static long exactLong(Object value) {
        return value instanceof Long l ? l : SqlValues.decimal(value).longValueExact();
    }

    /** The text of a result value for CSV: plain decimals, ISO dates, {@code \N} for NULL. */
    static String text(Object javaValue) {
        if (javaValue == null) {
            return SqlValues.NULL_TEXT;
        }
        if (javaValue instanceof LocalTime t) {
            return t.format(DateTimeFormatter.ISO_LOCAL_TIME);
        }
        return javaValue instanceof BigDecimal d ? d.toPlainString() : String.valueOf(javaValue);
    }
}
