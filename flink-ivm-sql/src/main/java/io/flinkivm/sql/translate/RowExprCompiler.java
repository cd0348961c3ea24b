package io.flinkivm.sql.translate;

import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.InvalidQueryException;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlLikeOperator;

/**
 * Compiles a SQL expression over one table's row into a {@link RowExpr}, checking types as Flink SQL
 * does; an expression without columns is evaluated here, once. Column references are resolved by the
 * caller (which knows the table). Supported: literals (numbers, strings, booleans, DATE, TIMESTAMP,
 * NULL, intervals added to dates), {@code + - * / %}, comparisons, AND, OR, NOT, IS [NOT]
 * NULL/TRUE/FALSE, [NOT] BETWEEN [SYMMETRIC], [NOT] IN (values), [NOT] LIKE [ESCAPE], CASE, CAST,
 * EXTRACT, COALESCE, UPPER, LOWER, CHAR_LENGTH, TRIM, SUBSTRING, || and CONCAT of two, ABS, MOD. Anything else of
 * one row goes to Flink where a {@link Delegate} is given ({@link ComputedColumn}).
 */
final class RowExprCompiler {

    /** Leaves an expression of the row that this compiler does not take to Flink. */
    @FunctionalInterface
    interface Delegate {
        /**
         * The column Flink computes for {@code node}, or null where Flink cannot take it in a projection of the
         * table (it has a subquery or an aggregate, or reads no column).
         *
         * @param ours why this compiler does not take it
         * @throws io.flinkivm.core.query.InvalidQueryException if Flink does not take it either
         * @throws io.flinkivm.core.plan.UnsupportedPlanException if its type is not one flink-ivm holds
         */
        RowExpr compute(SqlNode node, RuntimeException ours);
    }

    private final SqlErrors errors;
    private final SqlLiterals literals;
    private final RowFunctionCompiler functions;
    private final Function<SqlIdentifier, RowExpr> columns;
    private final Delegate flink;
    /** Flink's refusals: an enclosing expression does not try Flink again. */
    private final Set<RuntimeException> refusals = Collections.newSetFromMap(new IdentityHashMap<>());

    /**
     * A compiler whose column references {@code columns} resolves (to {@link RowExpr.Column}s), and which
     * leaves the calls it does not take to {@code flink} (null: refuses them).
     */
    RowExprCompiler(SqlErrors errors, Function<SqlIdentifier, RowExpr> columns, Delegate flink) {
        this.errors = errors;
        this.literals = new SqlLiterals(errors);
        this.functions = new RowFunctionCompiler(errors, this);
        this.columns = columns;
        this.flink = flink;
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

    /**
     * The expression: compiled here where this compiler takes it, else (a call, with a {@link Delegate}) the
     * column Flink computes for it. The innermost call that is not taken goes to Flink, so that what is around it
     * stays compiled; where Flink's type of it is not one flink-ivm holds, the call around it goes instead.
     */
    RowExpr expression(SqlNode node) {
        if (flink == null || !(node instanceof SqlCall)) {
            return own(node);
        }
        try {
            return own(node);
        } catch (UnsupportedPlanException | InvalidQueryException e) {
            if (refusals.contains(e)) {
                throw e;
            }
            RowExpr computed;
            try {
                computed = flink.compute(node, e);
            } catch (InvalidQueryException refused) {
                refusals.add(refused);
                throw refused;
            }
            if (computed == null) {
                throw e;
            }
            return computed;
        }
    }

    private RowExpr own(SqlNode node) {
        if (node instanceof SqlIdentifier id) {
            return columns.apply(id);
        }
        SqlLiteral literal = literals.literal(node);
        if (literal != null) {
            return literals.value(literal);
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
            case CAST -> functions.cast(call);
            case EXTRACT -> functions.extract(call);
            case COALESCE -> functions.coalesce(call);
            case TRIM -> functions.trim(call);
            default -> functions.function(call);
        };
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
            return literals.shift(expression(left), interval, op == '-');
        }
        if (left instanceof SqlIntervalLiteral interval && op == '+') {
            return literals.shift(expression(right), interval, false);
        }
        RowExpr a = numeric(left);
        RowExpr b = numeric(right);
        return new RowExpr.Arithmetic(op, a, b, SqlTypeRules.arithmetic(op, a.type(), b.type()));
    }

    private RowExpr negate(SqlCall call) {
        return new RowExpr.Negate(numeric(call.operand(0)));
    }

    RowExpr numeric(SqlNode node) {
        RowExpr e = expression(node);
        if (!e.type().isNumeric() && !isNull(e)) {
            throw errors.invalid(node, SqlErrors.plain(node) + " is a " + e.type() + ", not a number");
        }
        return isNull(e) ? new RowExpr.Literal(null, SqlType.BIGINT) : e;
    }

    RowExpr bool(SqlNode node) {
        RowExpr e = expression(node);
        if (e.type().kind() != SqlType.Kind.BOOLEAN && !isNull(e)) {
            throw errors.invalid(node, SqlErrors.plain(node) + " is a " + e.type() + ", not a condition");
        }
        return isNull(e) ? new RowExpr.Literal(null, SqlType.BOOLEAN) : e;
    }

    static boolean isNull(RowExpr e) {
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
                && (other.kind() == SqlType.Kind.DATE
                        || other.kind() == SqlType.Kind.TIME
                        || other.kind() == SqlType.Kind.TIMESTAMP)) {
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

    SqlType branchType(SqlType known, RowExpr branch, SqlNode where) {
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
}
