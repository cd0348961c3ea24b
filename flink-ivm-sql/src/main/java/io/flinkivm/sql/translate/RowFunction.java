package io.flinkivm.sql.translate;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.Locale;

/**
 * The scalar functions a row's expressions may call ({@link RowExpr.Call}), with Flink SQL's meaning.
 * Arguments are non-null ({@link #COALESCE} excepted) and of the types {@link RowExprCompiler} checked.
 */
enum RowFunction {
    CAST,
    EXTRACT_YEAR,
    EXTRACT_QUARTER,
    EXTRACT_MONTH,
    EXTRACT_DAY,
    EXTRACT_HOUR,
    EXTRACT_MINUTE,
    EXTRACT_SECOND,
    UPPER,
    LOWER,
    CHAR_LENGTH,
    TRIM,
    /** SUBSTRING(s FROM start [FOR length]), positions from 1. */
    SUBSTRING,
    CONCAT,
    ABS,
    MOD,
    COALESCE;

    /** The function applied to its arguments' values. */
    Object apply(Object[] args, SqlType type) {
        return switch (this) {
            case CAST -> SqlValues.cast(args[0], type);
            case EXTRACT_YEAR -> (long) date(args[0]).getYear();
            case EXTRACT_QUARTER -> (long) (date(args[0]).getMonthValue() + 2) / 3;
            case EXTRACT_MONTH -> (long) date(args[0]).getMonthValue();
            case EXTRACT_DAY -> (long) date(args[0]).getDayOfMonth();
            case EXTRACT_HOUR -> (long) time(args[0]).getHour();
            case EXTRACT_MINUTE -> (long) time(args[0]).getMinute();
            case EXTRACT_SECOND -> (long) time(args[0]).getSecond();
            case UPPER -> ((String) args[0]).toUpperCase(Locale.ROOT);
            case LOWER -> ((String) args[0]).toLowerCase(Locale.ROOT);
            case CHAR_LENGTH -> (long) ((String) args[0]).codePointCount(0, ((String) args[0]).length());
            case TRIM -> ((String) args[0]).strip();
            case SUBSTRING -> substring((String) args[0], (Long) args[1], args.length > 2 ? (Long) args[2] : null);
            case CONCAT -> (String) args[0] + args[1];
            case ABS ->
                args[0] instanceof Long l
                        ? (Object) Math.absExact(l)
                        : args[0] instanceof Double d ? (Object) Math.abs(d) : ((BigDecimal) args[0]).abs();
            case MOD -> SqlValues.arithmetic('%', args[0], args[1], type);
            case COALESCE -> {
                for (Object a : args) {
                    if (a != null) {
                        yield a;
                    }
                }
                yield null;
            }
        };
    }

    private static LocalDate date(Object v) {
        return v instanceof LocalDateTime t ? t.toLocalDate() : (LocalDate) v;
    }

    private static LocalTime time(Object v) {
        return v instanceof LocalDateTime t ? t.toLocalTime() : v instanceof LocalTime t ? t : LocalTime.MIDNIGHT;
    }

    private static String substring(String s, long start, Long length) {
        int from = (int) Math.max(1, start) - 1;
        long end = length == null ? Long.MAX_VALUE : start - 1 + length;
        int to = (int) Math.min(s.length(), Math.max(from, end));
        return from >= s.length() ? "" : s.substring(from, to);
    }

    /** The call as SQL. */
    String text(List<RowExpr> args, SqlType type) {
        String first = args.get(0).text();
        return switch (this) {
            case CAST -> "CAST(" + first + " AS " + type + ")";
            case EXTRACT_YEAR,
                    EXTRACT_QUARTER,
                    EXTRACT_MONTH,
                    EXTRACT_DAY,
                    EXTRACT_HOUR,
                    EXTRACT_MINUTE,
                    EXTRACT_SECOND -> "EXTRACT(" + name().substring("EXTRACT_".length()) + " FROM " + first + ")";
            case SUBSTRING ->
                "SUBSTRING(" + first + " FROM " + args.get(1).text()
                        + (args.size() > 2 ? " FOR " + args.get(2).text() : "") + ")";
            case CONCAT -> "(" + first + " || " + args.get(1).text() + ")";
            default -> {
                StringBuilder sb = new StringBuilder(name()).append('(');
                for (int i = 0; i < args.size(); i++) {
                    sb.append(i == 0 ? "" : ", ").append(args.get(i).text());
                }
                yield sb.append(')').toString();
            }
        };
    }
}
