package io.flinkivm.sql.translate;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The view's output columns, one per item of the SELECT list: a grouped or selected value by its
 * position in the query's head (or the literal it is fixed to), a literal, or an aggregate; and
 * whether each can be NULL.
 */
final class OutputColumns {
    private final ColumnClasses classes;
    /** Per alias, the conditions of its filter. */
    private final List<List<RowExpr>> filters;

    private final SqlErrors errors;

    OutputColumns(ColumnClasses classes, List<List<RowExpr>> filters, SqlErrors errors) {
        this.classes = classes;
        this.filters = filters;
        this.errors = errors;
    }

    /** The output columns of the SELECT list {@code items}, over the query's {@code head} and variable {@code names}. */
    List<SqlTranslation.OutputColumn> of(
            List<SqlTranslator.Item> items,
            List<String> head,
            Map<Integer, String> names,
            AggregateCompiler.Compiled agg) {
        List<SqlTranslation.OutputColumn> out = new ArrayList<>();
        int aggregate = 0;
        for (SqlTranslator.Item item : items) {
            switch (item.kind()) {
                case VALUE -> {
                    ColumnClasses.Value value = classes.value(item.value());
                    ColumnClasses.Fixed fixed = classes.fixed(item.value());
                    SqlType type = value.expr().type();
                    if (fixed != null) {
                        Object constant = SqlOutputs.toJava(SqlValues.cast(fixed.value(), type), type);
                        out.add(new SqlTranslation.OutputColumn(item.name(), type, -1, null, constant, null, false));
                    } else {
                        int position = head.indexOf(names.get(classes.find(item.value())));
                        out.add(new SqlTranslation.OutputColumn(
                                item.name(),
                                type,
                                position,
                                classes.codec(item.value()),
                                null,
                                null,
                                nullable(item.value())));
                    }
                }
                case LITERAL -> {
                    RowExpr.Literal l = (RowExpr.Literal) item.literal();
                    if (l.value() == null) {
                        throw errors.unsupported(
                                item.node(), "NULL in SELECT", "select values; a column of NULLs has no type");
                    }
                    out.add(new SqlTranslation.OutputColumn(
                            item.name(), l.type(), -1, null, SqlOutputs.toJava(l.value(), l.type()), null, false));
                }
                case AGGREGATE -> {
                    AggregateOutput o = agg.outputs().get(aggregate++);
                    out.add(new SqlTranslation.OutputColumn(
                            item.name(),
                            o.type(),
                            -1,
                            null,
                            null,
                            o,
                            !o.function().equals("COUNT")));
                }
            }
        }
        return out;
    }

    /**
     * Whether a grouped or selected value can be NULL in the result: a join drops NULLs, and so does an
     * equality of two values of one row; a value of one table alone keeps them.
     */
    private boolean nullable(int value) {
        int root = classes.find(value);
        int members = 0;
        for (int v = 0; v < classes.size(); v++) {
            if (classes.find(v) == root) {
                members++;
            }
        }
        ColumnClasses.Value v = classes.value(value);
        return members == 1 && v.expr().nullable() && !rejectsNull(filters.get(v.alias()), v.expr());
    }

    /** Whether a conjunct of {@code conditions} is UNKNOWN, and so filters the row out, where {@code e} is NULL. */
    private static boolean rejectsNull(List<RowExpr> conditions, RowExpr e) {
        for (RowExpr c : conditions) {
            List<RowExpr> strict = c instanceof RowExpr.Compare
                            || c instanceof RowExpr.In
                            || c instanceof RowExpr.Like
                            || c instanceof RowExpr.Is is && is.value() == null && is.negated()
                    ? RowExprs.operands(c)
                    : List.of();
            for (RowExpr operand : strict) {
                if (operand.text().equals(e.text())) {
                    return true;
                }
            }
        }
        return false;
    }
}
