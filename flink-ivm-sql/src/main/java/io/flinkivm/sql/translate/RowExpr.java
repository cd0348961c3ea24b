package io.flinkivm.sql.translate;

import java.io.Serializable;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An expression over one table's row, compiled from SQL by {@link RowExprCompiler}: evaluated where a
 * row enters, on its input values ({@link SqlValues}' domain, NULL as {@code null}). Predicates follow
 * SQL's three-valued logic: {@code null} is UNKNOWN, and a row whose condition is not TRUE is filtered
 * out. {@link #text()} is the expression as SQL, with column names: it is also the expression's
 * identity (two expressions with the same text compute the same value).
 */
sealed interface RowExpr extends Serializable {

    /** The value of the expression for a row's input values; null for NULL (or UNKNOWN). */
    Object eval(Object[] row);

    /** The SQL type of the value. */
    SqlType type();

    /** Whether the value can be NULL. */
    boolean nullable();

    /** The expression as SQL text. */
    String text();

    /** Whether a predicate is TRUE for the row (not FALSE and not UNKNOWN). */
    default boolean isTrue(Object[] row) {
        return Boolean.TRUE.equals(eval(row));
    }

    /**
     * An input value: the table's column at {@code index} of a row's values, or a column that Flink
     * computes in the table's projection ({@code flinkSql} its expression, see {@link ComputedColumn}).
     */
    record Column(int index, String name, SqlType type, boolean nullable, String flinkSql) implements RowExpr {
        /** A column of the table. */
        Column(int index, String name, SqlType type, boolean nullable) {
            this(index, name, type, nullable, null);
        }

        @Override
        public Object eval(Object[] row) {
            return row[index];
        }

        /** Whether Flink computes this column ({@link ComputedColumn}). */
        boolean isComputed() {
            return flinkSql != null;
        }

        @Override
        public String text() {
            return flinkSql == null ? name : flinkSql;
        }
    }

    /** A constant (NULL included). */
    record Literal(Object value, SqlType type) implements RowExpr {
        @Override
        public Object eval(Object[] row) {
            return value;
        }

        @Override
        public boolean nullable() {
            return value == null;
        }

        @Override
        public String text() {
            return SqlValues.literal(value);
        }
    }

    /** left op right, op one of {@code + - * / %}, NULL if an operand is. */
    record Arithmetic(char op, RowExpr left, RowExpr right, SqlType type) implements RowExpr {
        @Override
        public Object eval(Object[] row) {
            Object a = left.eval(row);
            if (a == null) {
                return null;
            }
            Object b = right.eval(row);
            if (b == null) {
                return null;
            }
            if ((op == '/' || op == '%') && !type.isApproximate() && SqlValues.compare(b, 0L) == 0) {
                throw new ArithmeticException("division by zero in " + text());
            }
            return SqlValues.arithmetic(op, a, b, type);
        }

        @Override
        public boolean nullable() {
            return left.nullable() || right.nullable();
        }

        @Override
        public String text() {
            return "(" + left.text() + " " + op + " " + right.text() + ")";
        }
    }

    /** -operand. */
    record Negate(RowExpr operand) implements RowExpr {
        @Override
        public Object eval(Object[] row) {
            Object a = operand.eval(row);
            return a == null ? null : SqlValues.negate(a);
        }

        @Override
        public SqlType type() {
            return operand.type();
        }

        @Override
        public boolean nullable() {
            return operand.nullable();
        }

        @Override
        public String text() {
            return "-" + operand.text();
        }
    }

    /** A date or timestamp moved by an interval of months or days (and smaller units for timestamps). */
    record DateShift(RowExpr operand, long amount, ChronoUnit unit) implements RowExpr {
        @Override
        public Object eval(Object[] row) {
            Object a = operand.eval(row);
            if (a instanceof LocalDate d) {
                return d.plus(amount, unit);
            }
            return a == null ? null : ((LocalDateTime) a).plus(amount, unit);
        }

        @Override
        public SqlType type() {
            return operand.type();
        }

        @Override
        public boolean nullable() {
            return operand.nullable();
        }

        @Override
        public String text() {
            return "(" + operand.text() + (amount < 0 ? " - " : " + ") + "INTERVAL '" + Math.abs(amount) + "' "
                    + unit.name().substring(0, unit.name().length() - 1) + ")";
        }
    }

    /** The comparisons. */
    enum Comparison {
        EQ("="),
        NE("<>"),
        LT("<"),
        LE("<="),
        GT(">"),
        GE(">=");

        final String symbol;

        Comparison(String symbol) {
            this.symbol = symbol;
        }

        boolean holds(int c) {
            return switch (this) {
                case EQ -> c == 0;
                case NE -> c != 0;
                case LT -> c < 0;
                case LE -> c <= 0;
                case GT -> c > 0;
                case GE -> c >= 0;
            };
        }
    }

    /** left op right: UNKNOWN if an operand is NULL. */
    record Compare(Comparison op, RowExpr left, RowExpr right) implements RowExpr {
        @Override
        public Object eval(Object[] row) {
            Object a = left.eval(row);
            if (a == null) {
                return null;
            }
            Object b = right.eval(row);
            return b == null ? null : op.holds(SqlValues.compare(a, b));
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }

        @Override
        public boolean nullable() {
            return left.nullable() || right.nullable();
        }

        @Override
        public String text() {
            return left.text() + " " + op.symbol + " " + right.text();
        }
    }

    /** AND (all) or OR (any) of predicates, in three-valued logic. */
    record Junction(boolean and, List<RowExpr> operands) implements RowExpr {
        public Junction {
            operands = List.copyOf(operands);
        }

        @Override
        public Object eval(Object[] row) {
            boolean unknown = false;
            for (RowExpr e : operands) {
                Object v = e.eval(row);
                if (v == null) {
                    unknown = true;
                } else if ((Boolean) v != and) {
                    return !and;
                }
            }
            return unknown ? null : and;
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }

        @Override
        public boolean nullable() {
            return operands.stream().anyMatch(RowExpr::nullable);
        }

        @Override
        public String text() {
            StringBuilder sb = new StringBuilder("(");
            for (int i = 0; i < operands.size(); i++) {
                sb.append(i == 0 ? "" : and ? " AND " : " OR ")
                        .append(operands.get(i).text());
            }
            return sb.append(')').toString();
        }
    }

    /** NOT operand: UNKNOWN stays UNKNOWN. */
    record Not(RowExpr operand) implements RowExpr {
        @Override
        public Object eval(Object[] row) {
            Object v = operand.eval(row);
            return v == null ? null : !(Boolean) v;
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }

        @Override
        public boolean nullable() {
            return operand.nullable();
        }

        @Override
        public String text() {
            return "NOT " + operand.text();
        }
    }

    /**
     * {@code operand IS [NOT] NULL} ({@code value} null), or {@code IS [NOT] TRUE/FALSE}: never UNKNOWN.
     */
    record Is(RowExpr operand, Boolean value, boolean negated) implements RowExpr {
        @Override
        public Object eval(Object[] row) {
            Object v = operand.eval(row);
            boolean is = value == null ? v == null : value.equals(v);
            return is != negated;
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }

        @Override
        public boolean nullable() {
            return false;
        }

        @Override
        public String text() {
            return operand.text() + " IS " + (negated ? "NOT " : "")
                    + (value == null ? "NULL" : value ? "TRUE" : "FALSE");
        }
    }

    /** {@code operand [NOT] IN (constants)}: UNKNOWN if the operand is NULL, or not found and a constant is NULL. */
    record In(RowExpr operand, Set<Object> values, boolean hasNull, boolean negated, String list) implements RowExpr {
        @Override
        public Object eval(Object[] row) {
            Object v = operand.eval(row);
            if (v == null) {
                return null;
            }
            if (values.contains(v)) {
                return !negated;
            }
            return hasNull ? null : negated;
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }

        @Override
        public boolean nullable() {
            return operand.nullable() || hasNull;
        }

        @Override
        public String text() {
            return operand.text() + (negated ? " NOT IN (" : " IN (") + list + ")";
        }
    }

    /** {@code operand [NOT] LIKE pattern}, the pattern compiled to a regular expression. */
    record Like(RowExpr operand, Pattern regex, boolean negated, String pattern) implements RowExpr {
        @Override
        public Object eval(Object[] row) {
            Object v = operand.eval(row);
            return v == null ? null : regex.matcher((String) v).matches() != negated;
        }

        @Override
        public SqlType type() {
            return SqlType.BOOLEAN;
        }

        @Override
        public boolean nullable() {
            return operand.nullable();
        }

        @Override
        public String text() {
            return operand.text() + (negated ? " NOT LIKE " : " LIKE ") + SqlValues.literal(pattern);
        }
    }

    /** {@code CASE WHEN c1 THEN v1 ... ELSE otherwise END}: the first TRUE condition's value. */
    record Case(List<RowExpr> conditions, List<RowExpr> values, RowExpr otherwise, SqlType type) implements RowExpr {
        public Case {
            conditions = List.copyOf(conditions);
            values = List.copyOf(values);
        }

        @Override
        public Object eval(Object[] row) {
            for (int i = 0; i < conditions.size(); i++) {
                if (conditions.get(i).isTrue(row)) {
                    return values.get(i).eval(row);
                }
            }
            return otherwise.eval(row);
        }

        @Override
        public boolean nullable() {
            return otherwise.nullable() || values.stream().anyMatch(RowExpr::nullable);
        }

        @Override
        public String text() {
            StringBuilder sb = new StringBuilder("CASE");
            for (int i = 0; i < conditions.size(); i++) {
                sb.append(" WHEN ")
                        .append(conditions.get(i).text())
                        .append(" THEN ")
                        .append(values.get(i).text());
            }
            return sb.append(" ELSE ").append(otherwise.text()).append(" END").toString();
        }
    }

    /** A function of non-null arguments (NULL if any argument is): CAST, EXTRACT, UPPER, ... */
    record Call(RowFunction function, List<RowExpr> arguments, SqlType type) implements RowExpr {
        public Call {
            arguments = List.copyOf(arguments);
        }

        @Override
        public Object eval(Object[] row) {
            Object[] values = new Object[arguments.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = arguments.get(i).eval(row);
                if (values[i] == null && function != RowFunction.COALESCE) {
                    return null;
                }
            }
            return function.apply(values, type);
        }

        @Override
        public boolean nullable() {
            if (function == RowFunction.COALESCE) {
                return arguments.stream().allMatch(RowExpr::nullable);
            }
            return arguments.stream().anyMatch(RowExpr::nullable);
        }

        @Override
        public String text() {
            return function.text(arguments, type);
        }
    }
}
