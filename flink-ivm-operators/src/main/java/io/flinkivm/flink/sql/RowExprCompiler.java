package io.flinkivm.flink.sql;

import io.flinkivm.core.query.InvalidQueryException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDateLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlTimestampLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * Compiles a SQL expression over one table's row into a {@link RowExpr}, checking types as Flink SQL
 * does; an expression without columns is evaluated here, once. Column references are resolved by the
 * caller (which knows the table). Supported: literals (numbers, strings, booleans, DATE, TIMESTAMP,
 * NULL, intervals added to dates), {@code + - * / %}, comparisons, AND, OR, NOT, IS [NOT]
 * NULL/TRUE/FALSE, [NOT] BETWEEN [SYMMETRIC], [NOT] IN (values), [NOT] LIKE [ESCAPE], CASE, CAST,
 * EXTRACT, COALESCE, UPPER, LOWER, CHAR_LENGTH, TRIM, SUBSTRING, ||, ABS, MOD.
 */
final class RowExprCompiler {

    private final SqlErrors errors;
    private final Function<SqlIdentifier, RowExpr> columns;

    /** A compiler whose column references {@code columns} resolves (to {@link RowExpr.Column}s). */
    RowExprCompiler(SqlErrors errors, Function<SqlIdentifier, RowExpr> columns) {
        this.errors = errors;
        this.columns = columns;
    }

    /** The expression, folded to a {@link RowExpr.Literal} if it uses no column. */
    RowExpr compile(SqlNode node) {
        RowExpr e = expression(node);
        if (!(e instanceof RowExpr.Literal) && !RowExprs.usesColumns(e)) {
            try {
                return new RowExpr.Literal(e.eval(new Object[0]), e.type());
            } catch (ArithmeticException | IllegalArgumentException | DateTimeParseException ex) {
                throw errors.invalid(node, "cannot evaluate " + SqlErrors.plain(node) + ": " + ex.getMessage());
            }
        }
        return e;
    }

    /** A condition: the expression, which must be BOOLEAN. */
    RowExpr condition(SqlNode node) {
        RowExpr e = compile(node);
        if (e.type().kind() != SqlType.Kind.BOOLEAN && !(e instanceof RowExpr.Literal l && l.value() == null)) {
            throw errors.invalid(node, SqlErrors.plain(node) + " is a " + e.type() + ", not a condition");
        }
        return e;
    }

    private RowExpr expression(SqlNode node) {
        if (node instanceof SqlIdentifier id) {
            return columns.apply(id);
        }
        SqlLiteral literal = literal(node);
        if (literal != null) {
            return literalValue(literal);
        }
        if (!(node instanceof SqlCall call)) {
            throw errors.unsupported(node, SqlErrors.describe(node), "use columns, literals and operators");
        }
        return switch (call.getKind()) {
            case PLUS, MINUS, TIMES, DIVIDE, MOD -> arithmetic(call);
            case MINUS_PREFIX -> negate(call);
            case PLUS_PREFIX -> numeric(call.operand(0));
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL ->
                compare(call);
            case AND, OR -> junction(call);
            case NOT -> new RowExpr.Not(bool(call.operand(0)));
            case IS_NULL, IS_NOT_NULL ->
                new RowExpr.Is(expression(call.operand(0)), null, call.getKind() == SqlKind.IS_NOT_NULL);
            case IS_TRUE, IS_NOT_TRUE ->
                new RowExpr.Is(bool(call.operand(0)), true, call.getKind() == SqlKind.IS_NOT_TRUE);
            case IS_FALSE, IS_NOT_FALSE ->
                new RowExpr.Is(bool(call.operand(0)), false, call.getKind() == SqlKind.IS_NOT_FALSE);
            case IS_UNKNOWN -> new RowExpr.Is(bool(call.operand(0)), null, false);
            case BETWEEN -> between(call);
            case IN, NOT_IN -> in(call);
            case LIKE -> like(call);
            case CASE -> caseWhen((SqlCase) call);
            case CAST -> cast(call);
            case EXTRACT -> extract(call);
            case COALESCE -> coalesce(call);
            case TRIM -> trim(call);
            default -> function(call);
        };
    }

    // ---- literals ----

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
                        node, "the literal " + node, "use numeric, string, boolean, DATE or TIMESTAMP literals");
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

    private RowExpr literalValue(SqlLiteral l) {
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
        throw errors.unsupported(l, "the literal " + l, "use numeric, string, boolean, DATE or TIMESTAMP literals");
    }

    // ---- arithmetic ----

    private RowExpr arithmetic(SqlCall call) {
        SqlNode left = call.operand(0);
        SqlNode right = call.operand(1);
        char op = switch (call.getKind()) {
            case PLUS -> '+';
            case MINUS -> '-';
            case TIMES -> '*';
            case DIVIDE -> '/';
            default -> '%';
        };
        if (right instanceof SqlIntervalLiteral interval && (op == '+' || op == '-')) {
            return shift(expression(left), interval, op == '-');
        }
        if (left instanceof SqlIntervalLiteral interval && op == '+') {
            return shift(expression(right), interval, false);
        }
        RowExpr a = numeric(left);
        RowExpr b = numeric(right);
        return new RowExpr.Arithmetic(op, a, b, SqlTypeRules.arithmetic(op, a.type(), b.type()));
    }

    private RowExpr shift(RowExpr date, SqlIntervalLiteral interval, boolean minus) {
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

    private RowExpr negate(SqlCall call) {
        return new RowExpr.Negate(numeric(call.operand(0)));
    }

    private RowExpr numeric(SqlNode node) {
        RowExpr e = expression(node);
        if (!e.type().isNumeric() && !isNull(e)) {
            throw errors.invalid(node, SqlErrors.plain(node) + " is a " + e.type() + ", not a number");
        }
        return isNull(e) ? new RowExpr.Literal(null, SqlType.BIGINT) : e;
    }

    private RowExpr bool(SqlNode node) {
        RowExpr e = expression(node);
        if (e.type().kind() != SqlType.Kind.BOOLEAN && !isNull(e)) {
            throw errors.invalid(node, SqlErrors.plain(node) + " is a " + e.type() + ", not a condition");
        }
        return isNull(e) ? new RowExpr.Literal(null, SqlType.BOOLEAN) : e;
    }

    private static boolean isNull(RowExpr e) {
        return e instanceof RowExpr.Literal l && l.value() == null;
    }

    // ---- predicates ----

    private RowExpr compare(SqlCall call) {
        RowExpr.Comparison op = switch (call.getKind()) {
            case EQUALS -> RowExpr.Comparison.EQ;
            case NOT_EQUALS -> RowExpr.Comparison.NE;
            case LESS_THAN -> RowExpr.Comparison.LT;
            case LESS_THAN_OR_EQUAL -> RowExpr.Comparison.LE;
            case GREATER_THAN -> RowExpr.Comparison.GT;
            default -> RowExpr.Comparison.GE;
        };
        RowExpr[] operands = comparable(call, call.operand(0), call.operand(1));
        return new RowExpr.Compare(op, operands[0], operands[1]);
    }

    /** The two operands of a comparison, a string literal compared with a date read as a date. */
    private RowExpr[] comparable(SqlNode where, SqlNode left, SqlNode right) {
        RowExpr a = expression(left);
        RowExpr b = expression(right);
        if (isNull(a) || isNull(b)) {
            return new RowExpr[] {a, b};
        }
        a = temporalLiteral(a, b.type(), left);
        b = temporalLiteral(b, a.type(), right);
        if (!SqlTypeRules.comparable(a.type(), b.type())) {
            throw errors.invalid(
                    where,
                    "cannot compare " + SqlErrors.plain(left) + " (" + a.type() + ") with " + SqlErrors.plain(right)
                            + " (" + b.type() + ")");
        }
        return new RowExpr[] {a, b};
    }

    private RowExpr temporalLiteral(RowExpr e, SqlType other, SqlNode node) {
        if (e instanceof RowExpr.Literal l
                && l.value() instanceof String s
                && (other.kind() == SqlType.Kind.DATE || other.kind() == SqlType.Kind.TIMESTAMP)) {
            try {
                return new RowExpr.Literal(SqlValues.cast(s, other), other);
            } catch (DateTimeParseException ex) {
                throw errors.invalid(node, "'" + s + "' is not a " + other);
            }
        }
        return e;
    }

    private RowExpr junction(SqlCall call) {
        List<RowExpr> operands = new ArrayList<>();
        for (SqlNode operand : call.getOperandList()) {
            operands.add(bool(operand));
        }
        return new RowExpr.Junction(call.getKind() == SqlKind.AND, operands);
    }

    private RowExpr between(SqlCall call) {
        SqlBetweenOperator op = (SqlBetweenOperator) call.getOperator();
        RowExpr[] low = comparable(call, call.operand(0), call.operand(1));
        RowExpr[] high = comparable(call, call.operand(0), call.operand(2));
        RowExpr ascending = new RowExpr.Junction(
                true,
                List.of(
                        new RowExpr.Compare(RowExpr.Comparison.GE, low[0], low[1]),
                        new RowExpr.Compare(RowExpr.Comparison.LE, high[0], high[1])));
        RowExpr result = ascending;
        if (op.flag == SqlBetweenOperator.Flag.SYMMETRIC) {
            RowExpr descending = new RowExpr.Junction(
                    true,
                    List.of(
                            new RowExpr.Compare(RowExpr.Comparison.GE, high[0], high[1]),
                            new RowExpr.Compare(RowExpr.Comparison.LE, low[0], low[1])));
            result = new RowExpr.Junction(false, List.of(ascending, descending));
        }
        return op.isNegated() ? new RowExpr.Not(result) : result;
    }

    private RowExpr in(SqlCall call) {
        boolean negated = call.getKind() == SqlKind.NOT_IN;
        if (!(call.operand(1) instanceof SqlNodeList list)) {
            throw errors.unsupported(
                    call,
                    SqlErrors.describe(call) + " a subquery",
                    "subqueries are not supported; join the table in FROM");
        }
        RowExpr operand = expression(call.operand(0));
        List<RowExpr> values = new ArrayList<>();
        for (SqlNode item : list) {
            RowExpr v = temporalLiteral(compile(item), operand.type(), item);
            if (!(v instanceof RowExpr.Literal)) {
                throw errors.unsupported(
                        item,
                        SqlErrors.plain(item) + " in an IN list",
                        "IN lists constants; write comparisons with OR");
            }
            if (!isNull(v) && !SqlTypeRules.comparable(operand.type(), v.type())) {
                throw errors.invalid(
                        item, "cannot compare " + operand.text() + " (" + operand.type() + ") with " + v.text());
            }
            values.add(v);
        }
        boolean hashable = !operand.type().isNumeric()
                || operand.type().isInteger()
                        && values.stream().allMatch(v -> isNull(v) || v.type().isInteger());
        if (!hashable) {
            List<RowExpr> equalities = new ArrayList<>();
            for (RowExpr v : values) {
                equalities.add(new RowExpr.Compare(RowExpr.Comparison.EQ, operand, v));
            }
            RowExpr any = new RowExpr.Junction(false, equalities);
            return negated ? new RowExpr.Not(any) : any;
        }
        Set<Object> set = new HashSet<>();
        boolean hasNull = false;
        List<String> texts = new ArrayList<>();
        for (RowExpr v : values) {
            Object value = ((RowExpr.Literal) v).value();
            hasNull |= value == null;
            if (value != null) {
                set.add(value);
            }
            texts.add(v.text());
        }
        return new RowExpr.In(operand, Set.copyOf(set), hasNull, negated, String.join(", ", texts));
    }

    private RowExpr like(SqlCall call) {
        SqlLikeOperator op = (SqlLikeOperator) call.getOperator();
        if (!op.isCaseSensitive() || !op.getName().toUpperCase(Locale.ROOT).contains("LIKE")) {
            throw errors.unsupported(call, op.getName(), "use LIKE");
        }
        RowExpr operand = expression(call.operand(0));
        if (operand.type().kind() != SqlType.Kind.STRING) {
            throw errors.invalid(
                    call, SqlErrors.plain(call.operand(0)) + " is a " + operand.type() + ", LIKE takes strings");
        }
        String pattern = constantString(call.operand(1), "LIKE's pattern");
        Character escape = null;
        if (call.operandCount() > 2) {
            String e = constantString(call.operand(2), "LIKE's escape");
            if (e.length() != 1) {
                throw errors.invalid(call.operand(2), "the escape of LIKE is one character");
            }
            escape = e.charAt(0);
        }
        return new RowExpr.Like(operand, likePattern(pattern, escape, call), op.isNegated(), pattern);
    }

    private Pattern likePattern(String pattern, Character escape, SqlNode where) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == escape) {
                if (++i == pattern.length()) {
                    throw errors.invalid(where, "LIKE pattern " + pattern + " ends with its escape character");
                }
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    private String constantString(SqlNode node, String what) {
        RowExpr e = compile(node);
        if (e instanceof RowExpr.Literal l && l.value() instanceof String s) {
            return s;
        }
        throw errors.unsupported(node, SqlErrors.plain(node) + " as " + what, "write a string literal");
    }

    // ---- CASE, CAST, functions ----

    private RowExpr caseWhen(SqlCase c) {
        List<RowExpr> conditions = new ArrayList<>();
        List<RowExpr> values = new ArrayList<>();
        SqlType type = null;
        RowExpr subject = c.getValueOperand() == null ? null : expression(c.getValueOperand());
        for (int i = 0; i < c.getWhenOperands().size(); i++) {
            SqlNode when = c.getWhenOperands().get(i);
            if (subject == null) {
                conditions.add(bool(when));
            } else {
                RowExpr[] pair = comparable(when, c.getValueOperand(), when);
                conditions.add(new RowExpr.Compare(RowExpr.Comparison.EQ, pair[0], pair[1]));
            }
            RowExpr then = expression(c.getThenOperands().get(i));
            values.add(then);
            type = branchType(type, then, c.getThenOperands().get(i));
        }
        RowExpr otherwise = c.getElseOperand() == null
                ? new RowExpr.Literal(null, SqlType.unsupported("NULL"))
                : expression(c.getElseOperand());
        type = branchType(type, otherwise, c.getElseOperand() == null ? c : c.getElseOperand());
        if (type == null) {
            throw errors.invalid(c, "every branch of " + SqlErrors.plain(c) + " is NULL");
        }
        return new RowExpr.Case(conditions, values, retyped(otherwise, type), type);
    }

    private SqlType branchType(SqlType known, RowExpr branch, SqlNode where) {
        if (isNull(branch)) {
            return known;
        }
        SqlType common = SqlTypeRules.common(known, branch.type());
        if (common == null) {
            throw errors.invalid(where, "the branches of CASE have types " + known + " and " + branch.type());
        }
        return common;
    }

    private static RowExpr retyped(RowExpr e, SqlType type) {
        return isNull(e) ? new RowExpr.Literal(null, type) : e;
    }

    private RowExpr cast(SqlCall call) {
        RowExpr operand = expression(call.operand(0));
        SqlType target;
        try {
            target = SqlSchemas.type(((SqlDataTypeSpec) call.operand(1)).toString());
        } catch (InvalidQueryException | ClassCastException e) {
            throw errors.unsupported(
                    call.operand(1),
                    "CAST to " + call.operand(1),
                    "cast to a numeric, string, boolean, DATE or TIMESTAMP type");
        }
        return new RowExpr.Call(RowFunction.CAST, List.of(operand), target);
    }

    private RowExpr extract(SqlCall call) {
        TimeUnit unit = ((SqlIntervalQualifier) call.operand(0)).getStartUnit();
        RowExpr operand = expression(call.operand(1));
        SqlType.Kind kind = operand.type().kind();
        if (kind != SqlType.Kind.DATE && kind != SqlType.Kind.TIMESTAMP) {
            throw errors.invalid(call, "EXTRACT takes a DATE or TIMESTAMP, not " + operand.type());
        }
        RowFunction f = switch (unit) {
            case YEAR -> RowFunction.EXTRACT_YEAR;
            case QUARTER -> RowFunction.EXTRACT_QUARTER;
            case MONTH -> RowFunction.EXTRACT_MONTH;
            case DAY -> RowFunction.EXTRACT_DAY;
            case HOUR -> RowFunction.EXTRACT_HOUR;
            case MINUTE -> RowFunction.EXTRACT_MINUTE;
            case SECOND -> RowFunction.EXTRACT_SECOND;
            default ->
                throw errors.unsupported(
                        call.operand(0),
                        "EXTRACT(" + unit + ")",
                        "extract YEAR, QUARTER, MONTH, DAY, HOUR, MINUTE or SECOND");
        };
        return new RowExpr.Call(f, List.of(operand), SqlType.BIGINT);
    }

    private RowExpr coalesce(SqlCall call) {
        List<RowExpr> args = new ArrayList<>();
        SqlType type = null;
        for (SqlNode operand : call.getOperandList()) {
            RowExpr e = expression(operand);
            type = branchType(type, e, operand);
            args.add(e);
        }
        if (type == null) {
            throw errors.invalid(call, "every argument of COALESCE is NULL");
        }
        return new RowExpr.Call(RowFunction.COALESCE, args, type);
    }

    private RowExpr trim(SqlCall call) {
        SqlNode flag = call.operand(0);
        RowExpr chars = expression(call.operand(1));
        if (!(flag instanceof SqlLiteral l && l.getValue() == SqlTrimFunction.Flag.BOTH)
                || !(chars instanceof RowExpr.Literal c && " ".equals(c.value()))) {
            throw errors.unsupported(call, "TRIM of other characters or sides", "TRIM removes spaces on both sides");
        }
        return new RowExpr.Call(RowFunction.TRIM, List.of(string(call.operand(2))), SqlType.STRING);
    }

    private RowExpr string(SqlNode node) {
        RowExpr e = expression(node);
        if (e.type().kind() != SqlType.Kind.STRING && !isNull(e)) {
            throw errors.invalid(node, SqlErrors.plain(node) + " is a " + e.type() + ", not a string");
        }
        return e;
    }

    private RowExpr function(SqlCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        List<SqlNode> ops = call.getOperandList();
        return switch (name) {
            case "UPPER", "LOWER" -> {
                arity(call, 1);
                yield new RowExpr.Call(
                        name.equals("UPPER") ? RowFunction.UPPER : RowFunction.LOWER,
                        List.of(string(ops.get(0))),
                        SqlType.STRING);
            }
            case "CHAR_LENGTH", "CHARACTER_LENGTH" -> {
                arity(call, 1);
                yield new RowExpr.Call(
                        RowFunction.CHAR_LENGTH, List.of(string(ops.get(0))), SqlType.of(SqlType.Kind.INT));
            }
            case "SUBSTRING" -> {
                List<RowExpr> args = new ArrayList<>();
                args.add(string(ops.get(0)));
                for (SqlNode n : ops.subList(1, ops.size())) {
                    RowExpr e = numeric(n);
                    if (!e.type().isInteger()) {
                        throw errors.invalid(n, "SUBSTRING takes integer positions");
                    }
                    args.add(e);
                }
                yield new RowExpr.Call(RowFunction.SUBSTRING, args, SqlType.STRING);
            }
            case "||", "CONCAT" -> {
                arity(call, 2);
                yield new RowExpr.Call(
                        RowFunction.CONCAT, List.of(string(ops.get(0)), string(ops.get(1))), SqlType.STRING);
            }
            case "ABS" -> {
                arity(call, 1);
                RowExpr e = numeric(ops.get(0));
                yield new RowExpr.Call(RowFunction.ABS, List.of(e), e.type());
            }
            case "MOD" -> {
                arity(call, 2);
                RowExpr a = numeric(ops.get(0));
                RowExpr b = numeric(ops.get(1));
                yield new RowExpr.Call(
                        RowFunction.MOD, List.of(a, b), SqlTypeRules.arithmetic('%', a.type(), b.type()));
            }
            default -> {
                if (call instanceof SqlBasicCall && call.getOperator().isAggregator()) {
                    throw errors.unsupported(call, "the aggregate " + name + " here", "aggregates go in SELECT");
                }
                throw errors.unsupported(
                        call,
                        SqlErrors.describe(call),
                        "a row's expressions use + - * / %, comparisons,"
                                + " AND, OR, NOT, IS [NOT] NULL, BETWEEN, IN, LIKE, CASE, CAST, EXTRACT, COALESCE, UPPER, LOWER,"
                                + " CHAR_LENGTH, TRIM, SUBSTRING, ||, ABS and MOD");
            }
        };
    }

    private void arity(SqlCall call, int n) {
        if (call.operandCount() != n) {
            throw errors.invalid(
                    call, call.getOperator().getName() + " takes " + n + " argument" + (n == 1 ? "" : "s"));
        }
    }
}
