package io.flinkivm.sql.translate;

import java.util.ArrayList;
import java.util.List;

/**
 * A table's filter as Flink SQL text, for Flink to evaluate in the table's own {@code Calc}, in front of
 * flink-ivm's conversion of its rows: a row that no relation of the table can take is then dropped
 * before it is copied, converted and sent. The conversion still applies each relation's own filter
 * ({@link TableInput}), so this is only the disjunction of those filters, and only where it cannot
 * fail at run time: comparisons, AND, OR, NOT, IS, IN, LIKE, and +, -, * and date shifts over columns
 * and constants. A filter with a division, a CASE or a function call that flink-ivm evaluates is not pushed
 * (Flink SQL would fail the job on a division by zero, where flink-ivm reports the row as a dead letter);
 * an expression Flink computes ({@link ComputedColumn}) is pushed as it is, since Flink evaluates it in the
 * table's projection in any case.
 */
final class PushedFilter {
    private PushedFilter() {}

    /**
     * The condition that a row of {@code input} must meet for some relation to take it, as Flink SQL
     * text with quoted column names; null if a relation takes every row or a filter cannot be pushed.
     */
    static String of(TableInput input) {
        List<String> any = new ArrayList<>();
        for (TableInput.RelationInput r : input.relationInputs()) {
            String sql = r.filter() == null ? null : sql(r.filter());
            if (sql == null) {
                return null;
            }
            any.add(sql);
        }
        return any.isEmpty() ? null : any.size() == 1 ? any.get(0) : "(" + String.join(" OR ", any) + ")";
    }

    /** {@code e} as Flink SQL, fully parenthesised; null if it is not one of the expressions pushed. */
    static String sql(RowExpr e) {
        if (e instanceof RowExpr.Column c) {
            // A computed column is its expression: Flink computes it in the projection after the filter anyway.
            return c.isComputed() ? "(" + c.flinkSql() + ")" : "`" + c.name().replace("`", "``") + "`";
        }
        if (e instanceof RowExpr.Literal l) {
            return SqlValues.literal(l.value());
        }
        if (e instanceof RowExpr.Arithmetic a) {
            return a.op() == '/' || a.op() == '%' ? null : binary(a.left(), " " + a.op() + " ", a.right());
        }
        if (e instanceof RowExpr.Negate n) {
            return unary("-", n.operand(), "");
        }
        if (e instanceof RowExpr.DateShift d) {
            String unit = d.unit().name();
            return unary(
                    "",
                    d.operand(),
                    (d.amount() < 0 ? " - " : " + ") + "INTERVAL '" + Math.abs(d.amount()) + "' "
                            + unit.substring(0, unit.length() - 1));
        }
        if (e instanceof RowExpr.Compare c) {
            return binary(c.left(), " " + c.op().symbol + " ", c.right());
        }
        if (e instanceof RowExpr.Junction j) {
            return junction(j);
        }
        if (e instanceof RowExpr.Not n) {
            return unary("NOT ", n.operand(), "");
        }
        if (e instanceof RowExpr.Is i) {
            return unary(
                    "",
                    i.operand(),
                    " IS " + (i.negated() ? "NOT " : "") + (i.value() == null ? "NULL" : i.value() ? "TRUE" : "FALSE"));
        }
        if (e instanceof RowExpr.In i) {
            return unary("", i.operand(), (i.negated() ? " NOT IN (" : " IN (") + i.list() + ")");
        }
        if (e instanceof RowExpr.Like l) {
            return unary("", l.operand(), (l.negated() ? " NOT LIKE " : " LIKE ") + SqlValues.literal(l.pattern()));
        }
        // CASE (its branches may divide) and function calls are not pushed.
        return null;
    }

    private static String unary(String before, RowExpr operand, String after) {
        String inner = sql(operand);
        return inner == null ? null : "(" + before + inner + after + ")";
    }

    private static String binary(RowExpr left, String op, RowExpr right) {
        String l = sql(left);
        String r = sql(right);
        return l == null || r == null ? null : "(" + l + op + r + ")";
    }

    private static String junction(RowExpr.Junction j) {
        List<String> parts = new ArrayList<>();
        for (RowExpr operand : j.operands()) {
            String s = sql(operand);
            if (s == null) {
                return null;
            }
            parts.add(s);
        }
        return "(" + String.join(j.and() ? " AND " : " OR ", parts) + ")";
    }
}
