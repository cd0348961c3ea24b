package io.flinkivm.sql.translate;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDateLiteral;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlTimeLiteral;
import org.apache.calcite.sql.SqlTimestampLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * SQL literals as values of {@link SqlValues}' domain with Flink SQL's types (an integer literal is
 * INT, or BIGINT beyond it; {@code 1.25} is DECIMAL(3, 2); {@code 1e3} is DOUBLE), and interval
 * literals added to dates and timestamps.
 */
final class SqlLiterals {

    private final SqlErrors errors;

    SqlLiterals(SqlErrors errors) {
        this.errors = errors;
    }

    /** The literal of {@code node}, folding a minus sign into a numeric literal; null if it is none. */
    SqlLiteral literal(SqlNode node) {
        if (node instanceof SqlUnknownLiteral u) {
            SqlTypeName type = switch (u.tag.toUpperCase(Locale.ROOT)) {
                case "DATE" -> SqlTypeName.DATE;
                case "TIMESTAMP" -> SqlTypeName.TIMESTAMP;
                case "TIME" -> SqlTypeName.TIME;
                default -> null;
            };
            if (type == null) {
                throw errors.unsupported(
                        node, "the literal " + node, "use numeric, string, boolean, DATE, TIME or TIMESTAMP literals");
            }
            try {
                return u.resolve(type);
            } catch (RuntimeException e) {
                throw errors.invalid(node, "malformed " + u.tag + " literal " + node);
            }
        }
        if (node instanceof SqlLiteral l) {
            return l;
        }
        if (node.getKind() == SqlKind.MINUS_PREFIX && ((SqlCall) node).operand(0) instanceof SqlNumericLiteral n) {
            return SqlLiteral.createNegative(n, node.getParserPosition());
        }
        return null;
    }

    /** The value and type of a literal. */
    RowExpr value(SqlLiteral l) {
        if (l instanceof SqlNumericLiteral n) {
            BigDecimal v = n.bigDecimalValue();
            if (!n.isExact()) {
                return new RowExpr.Literal(v.doubleValue(), SqlType.DOUBLE);
            }
            if (v.scale() <= 0
                    || v.stripTrailingZeros().scale() <= 0 && l.toString().indexOf('.') < 0) {
                long x = v.longValueExact();
                SqlType type = x >= Integer.MIN_VALUE && x <= Integer.MAX_VALUE
                        ? SqlType.of(SqlType.Kind.INT)
                        : SqlType.BIGINT;
                return new RowExpr.Literal(x, type);
            }
            return new RowExpr.Literal(v, SqlType.decimal(Math.max(v.precision(), v.scale()), v.scale()));
        }
        if (l instanceof SqlCharStringLiteral) {
            String s = l.getValueAs(String.class);
            return new RowExpr.Literal(s, SqlType.STRING.named("CHAR(" + s.length() + ")"));
        }
        if (l instanceof SqlDateLiteral d) {
            return new RowExpr.Literal(
                    LocalDate.parse(d.getValueAs(DateString.class).toString()), SqlType.of(SqlType.Kind.DATE));
        }
        if (l instanceof SqlTimeLiteral t) {
            return new RowExpr.Literal(
                    LocalTime.parse(t.getValueAs(TimeString.class).toString()), SqlType.time(t.getPrec()));
        }
        if (l instanceof SqlTimestampLiteral t) {
            TimestampString ts = t.getValueAs(TimestampString.class);
            return new RowExpr.Literal(
                    LocalDateTime.parse(ts.toString().replace(' ', 'T')), SqlType.timestamp(t.getPrec()));
        }
        if (l.getTypeName() == SqlTypeName.BOOLEAN) {
            return new RowExpr.Literal(l.booleanValue(), SqlType.BOOLEAN);
        }
        if (l.getTypeName() == SqlTypeName.NULL) {
            return new RowExpr.Literal(null, SqlType.unsupported("NULL"));
        }
        throw errors.unsupported(
                l, "the literal " + l, "use numeric, string, boolean, DATE, TIME or TIMESTAMP literals");
    }

    /** A date or timestamp moved by an interval literal (subtracted if {@code minus}). */
    RowExpr shift(RowExpr date, SqlIntervalLiteral interval, boolean minus) {
        SqlType.Kind kind = date.type().kind();
        if (kind != SqlType.Kind.DATE && kind != SqlType.Kind.TIMESTAMP) {
            throw errors.invalid(interval, "an interval is added to a DATE or TIMESTAMP, not to " + date.text());
        }
        SqlIntervalLiteral.IntervalValue v = interval.getValueAs(SqlIntervalLiteral.IntervalValue.class);
        SqlIntervalQualifier q = v.getIntervalQualifier();
        if (q.getEndUnit() != null && q.getEndUnit() != q.getStartUnit()) {
            throw errors.unsupported(
                    interval, "the interval " + interval, "write an interval of one unit, e.g. INTERVAL '3' MONTH");
        }
        long amount;
        try {
            amount = Long.parseLong(v.getIntervalLiteral().trim()) * v.getSign() * (minus ? -1 : 1);
        } catch (NumberFormatException e) {
            throw errors.invalid(interval, "malformed interval " + interval);
        }
        TimeUnit unit = q.getStartUnit();
        ChronoUnit chrono = switch (unit) {
            case YEAR -> ChronoUnit.YEARS;
            case QUARTER -> ChronoUnit.MONTHS;
            case MONTH -> ChronoUnit.MONTHS;
            case WEEK -> ChronoUnit.WEEKS;
            case DAY -> ChronoUnit.DAYS;
            case HOUR -> ChronoUnit.HOURS;
            case MINUTE -> ChronoUnit.MINUTES;
            case SECOND -> ChronoUnit.SECONDS;
            default ->
                throw errors.unsupported(
                        interval, "the interval unit " + unit, "use YEAR, MONTH, DAY, HOUR, MINUTE or SECOND");
        };
        if (unit == TimeUnit.QUARTER) {
            amount *= 3;
        }
        if (kind == SqlType.Kind.DATE && chrono.getDuration().toDays() < 1) {
            throw errors.unsupported(
                    interval, "adding " + interval + " to a DATE", "add days, months or years to a DATE");
        }
        return new RowExpr.DateShift(date, amount, chrono);
    }
}
