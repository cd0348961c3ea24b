package io.flinkivm.sql.translate;

import io.flinkivm.core.semiring.Chain;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * The values a row's expressions compute with, one Java class per type family: {@link Long} for every
 * integer type, {@link BigDecimal} for DECIMAL, {@link Double} for FLOAT and DOUBLE, {@link String},
 * {@link Boolean}, {@link LocalDate} for DATE, {@link LocalTime} for TIME and {@link LocalDateTime} for
 * TIMESTAMP; SQL's NULL is
 * {@code null}. Arithmetic and comparison follow Flink SQL: integers stay integers (division
 * truncates), a decimal operand makes the result exact decimal, a floating-point one makes it a double.
 */
final class SqlValues {
    private SqlValues() {}

    /**
     * The value of a column as Flink's Table API gives it (Integer for INT, Float for FLOAT, ...), in
     * this class's domain.
     *
     * @throws IllegalArgumentException if the value is not of the column's type
     */
    static Object fromJava(Object value, SqlType type) {
        if (value == null) {
            return null;
        }
        switch (type.kind()) {
            case TINYINT, SMALLINT, INT, BIGINT -> {
                if (value instanceof Long
                        || value instanceof Integer
                        || value instanceof Short
                        || value instanceof Byte) {
                    return ((Number) value).longValue();
                }
            }
            case DECIMAL -> {
                if (value instanceof BigDecimal d) {
                    return d;
                }
            }
            case FLOAT, DOUBLE -> {
                if (value instanceof Double || value instanceof Float) {
                    return ((Number) value).doubleValue();
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
                if (value instanceof LocalDate) {
                    return value;
                }
            }
            case TIME -> {
                if (value instanceof LocalTime) {
                    return value;
                }
            }
            case TIMESTAMP -> {
                if (value instanceof LocalDateTime) {
                    return value;
                }
            }
            default -> throw new IllegalArgumentException("values of type " + type + " are not supported");
        }
        throw new IllegalArgumentException(
                "expected a value of type " + type + ", got " + value.getClass().getSimpleName());
    }

    /** The text that stands for NULL in a CSV field of any column (an empty field is NULL too, except for strings). */
    static final String NULL_TEXT = "\\N";

    /**
     * The value of a column written as text: integers and decimals in plain notation, doubles as Java
     * parses them, {@code true}/{@code false}, dates {@code yyyy-mm-dd}, times {@code hh:mm[:ss[.f]]},
     * timestamps {@code yyyy-mm-dd hh:mm:ss[.f]}; {@code \N} is NULL, and so is an empty field of a column that is not a string.
     *
     * @throws IllegalArgumentException with a reason if the text is not a value of the type
     */
    static Object fromText(String text, SqlType type) {
        if (text.equals(NULL_TEXT) || text.isEmpty() && type.kind() != SqlType.Kind.STRING) {
            return null;
        }
        String t = type.kind() == SqlType.Kind.STRING ? text : text.trim();
        try {
            return switch (type.kind()) {
                case TINYINT, SMALLINT, INT, BIGINT -> Long.parseLong(t);
                case DECIMAL -> new BigDecimal(t);
                case FLOAT, DOUBLE -> Double.parseDouble(t);
                case STRING -> t;
                case BOOLEAN -> parseBoolean(t);
                case DATE -> LocalDate.parse(t);
                case TIME -> LocalTime.parse(t);
                case TIMESTAMP -> LocalDateTime.parse(t.replace(' ', 'T'));
                case UNSUPPORTED -> throw new IllegalArgumentException("values of type " + type + " are not supported");
            };
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a " + type + " value");
        }
    }

    private static Boolean parseBoolean(String t) {
        String l = t.toLowerCase(Locale.ROOT);
        if (l.equals("true")) {
            return Boolean.TRUE;
        }
        if (l.equals("false")) {
            return Boolean.FALSE;
        }
        throw new IllegalArgumentException("'" + t + "' is not a BOOLEAN value (true or false)");
    }

    /** -1, 0 or 1 for two non-null values of comparable types (numbers with numbers, and so on). */
    static int compare(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        if (a instanceof Number || b instanceof Number) {
            if (a instanceof Double || b instanceof Double) {
                return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
            }
            return decimal(a).compareTo(decimal(b));
        }
        if (a instanceof String x && b instanceof String y) {
            return Chain.compareCodePoints(x, y); // as Flink compares their UTF-8 bytes
        }
        if (a instanceof Boolean x && b instanceof Boolean y) {
            return Boolean.compare(x, y);
        }
        if (a instanceof LocalDate x && b instanceof LocalDate y) {
            return x.compareTo(y);
        }
        if (a instanceof LocalTime x && b instanceof LocalTime y) {
            return x.compareTo(y);
        }
        return timestamp(a).compareTo(timestamp(b));
    }

    private static LocalDateTime timestamp(Object v) {
        return v instanceof LocalDate d ? d.atTime(LocalTime.MIDNIGHT) : (LocalDateTime) v;
    }

    /** The exact value of an integer or decimal. */
    static BigDecimal decimal(Object v) {
        return v instanceof BigDecimal d ? d : BigDecimal.valueOf(((Number) v).longValue());
    }

    /**
     * a op b for op in {@code + - * / %} on non-null numbers of the result type's family.
     *
     * @throws ArithmeticException on integer overflow or division by zero
     */
    static Object arithmetic(char op, Object a, Object b, SqlType result) {
        if (result.isInteger()) {
            long x = (Long) a;
            long y = (Long) b;
            return switch (op) {
                case '+' -> Math.addExact(x, y);
                case '-' -> Math.subtractExact(x, y);
                case '*' -> Math.multiplyExact(x, y);
                case '/' -> x / y;
                case '%' -> x % y;
                default -> throw new IllegalStateException("operator " + op);
            };
        }
        if (result.isApproximate()) {
            double x = ((Number) a).doubleValue();
            double y = ((Number) b).doubleValue();
            return switch (op) {
                case '+' -> x + y;
                case '-' -> x - y;
                case '*' -> x * y;
                case '/' -> x / y;
                case '%' -> x % y;
                default -> throw new IllegalStateException("operator " + op);
            };
        }
        BigDecimal x = decimal(a);
        BigDecimal y = decimal(b);
        BigDecimal r = switch (op) {
            case '+' -> x.add(y);
            case '-' -> x.subtract(y);
            case '*' -> x.multiply(y);
            case '/' -> x.divide(y, MathContext.DECIMAL128);
            case '%' -> x.remainder(y);
            default -> throw new IllegalStateException("operator " + op);
        };
        return op == '/' || r.scale() > result.scale() ? r.setScale(result.scale(), RoundingMode.HALF_UP) : r;
    }

    /** -a for a non-null number. */
    static Object negate(Object a) {
        if (a instanceof Long x) {
            return Math.negateExact(x);
        }
        if (a instanceof Double x) {
            return -x;
        }
        return ((BigDecimal) a).negate();
    }

    /**
     * A non-null value as a value of {@code target} (CAST).
     *
     * @throws IllegalArgumentException if it has no value there
     */
    static Object cast(Object v, SqlType target) {
        switch (target.kind()) {
            case TINYINT, SMALLINT, INT, BIGINT -> {
                if (v instanceof String s) {
                    return inRange(Long.parseLong(s.trim()), target);
                }
                if (v instanceof Boolean b) {
                    return b ? 1L : 0L;
                }
                return inRange(
                        decimal(v instanceof Double d ? BigDecimal.valueOf(d) : v)
                                .longValue(),
                        target);
            }
            case DECIMAL -> {
                BigDecimal d = v instanceof String s
                        ? new BigDecimal(s.trim())
                        : v instanceof Double x ? BigDecimal.valueOf(x) : decimal(v);
                return d.setScale(target.scale(), RoundingMode.HALF_UP);
            }
            case FLOAT, DOUBLE -> {
                return v instanceof String s ? Double.parseDouble(s.trim()) : ((Number) v).doubleValue();
            }
            case STRING -> {
                return v instanceof BigDecimal d
                        ? d.toPlainString()
                        : v instanceof LocalDateTime t
                                ? t.toString().replace('T', ' ')
                                : v instanceof LocalTime t
                                        ? t.format(DateTimeFormatter.ISO_LOCAL_TIME)
                                        : String.valueOf(v);
            }
            case BOOLEAN -> {
                return v instanceof String s
                        ? parseBoolean(s.trim())
                        : v instanceof Boolean ? v : ((Number) v).doubleValue() != 0;
            }
            case DATE -> {
                return v instanceof String s
                        ? LocalDate.parse(s.trim())
                        : v instanceof LocalDateTime t ? t.toLocalDate() : v;
            }
            case TIME -> {
                return v instanceof String s
                        ? LocalTime.parse(s.trim())
                        : v instanceof LocalDateTime t ? t.toLocalTime() : v;
            }
            case TIMESTAMP -> {
                return v instanceof String s
                        ? LocalDateTime.parse(s.trim().replace(' ', 'T'))
                        : v instanceof LocalDate d ? d.atStartOfDay() : v;
            }
            default -> throw new IllegalArgumentException("cannot cast to " + target);
        }
    }

    private static long inRange(long v, SqlType type) {
        long min = switch (type.kind()) {
            case TINYINT -> Byte.MIN_VALUE;
            case SMALLINT -> Short.MIN_VALUE;
            case INT -> Integer.MIN_VALUE;
            default -> Long.MIN_VALUE;
        };
        long max = switch (type.kind()) {
            case TINYINT -> Byte.MAX_VALUE;
            case SMALLINT -> Short.MAX_VALUE;
            case INT -> Integer.MAX_VALUE;
            default -> Long.MAX_VALUE;
        };
        if (v < min || v > max) {
            throw new IllegalArgumentException(v + " is out of range for " + type);
        }
        return v;
    }

    /** The text of a value for messages and explain: SQL literals' spelling. */
    static String literal(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof String s) {
            return "'" + s.replace("'", "''") + "'";
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof LocalDate d) {
            return "DATE '" + d + "'";
        }
        if (v instanceof LocalTime t) {
            return "TIME '" + DateTimeFormatter.ISO_LOCAL_TIME.format(t) + "'";
        }
        if (v instanceof LocalDateTime t) {
            return "TIMESTAMP '" + t.toString().replace('T', ' ') + "'";
        }
        if (v instanceof LocalTime t) {
            return "TIME '" + t.format(DateTimeFormatter.ISO_LOCAL_TIME) + "'";
        }
        if (v instanceof Boolean b) {
            return b ? "TRUE" : "FALSE";
        }
        return String.valueOf(v);
    }
}
