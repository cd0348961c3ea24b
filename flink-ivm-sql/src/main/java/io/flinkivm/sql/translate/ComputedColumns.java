package io.flinkivm.sql.translate;

import io.flinkivm.core.query.InvalidQueryException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * The expressions of a query that flink-ivm leaves to Flink: each becomes a column that Flink computes
 * in a projection of its table, one per table and expression text, shared by the table's aliases.
 */
final class ComputedColumns {
    private final Scope scope;
    private final SqlErrors errors;
    /** Types the expressions left to Flink. */
    private final SqlTranslation.ExpressionTyper flink;
    /** Per table (path), the expressions Flink computes, in order of first use. */
    private final Map<List<String>, List<ComputedColumn>> computed = new LinkedHashMap<>();

    ComputedColumns(Scope scope, SqlErrors errors, SqlTranslation.ExpressionTyper flink) {
        this.scope = scope;
        this.errors = errors;
        this.flink = flink;
    }

    /** The columns Flink computes for the table at {@code path}, in order of first use. */
    List<ComputedColumn> of(List<String> path) {
        return computed.getOrDefault(path, List.of());
    }

    /**
     * The column Flink computes for {@code node}, an expression of {@code alias}'s row that the compiler does not
     * take, or null where Flink cannot take it in a projection of the table (a subquery, an aggregate, no column).
     * One column per table and expression text, shared by the table's aliases.
     */
    RowExpr column(int alias, SqlNode node, RuntimeException ours) {
        // Not over a window table function's alias: Flink's projection would be of the table, not the window.
        if (!(node instanceof SqlCall)
                || !projectable(node)
                || scope.alias(alias).window() != null) {
            return null;
        }
        Scope.Alias a = scope.alias(alias);
        SqlTable table = a.table();
        Set<Integer> read = new TreeSet<>();
        String text = FlinkSqlText.of(node, id -> {
            Scope.ColumnRef ref = scope.resolve(id);
            if (ref.alias() != alias) {
                throw new IllegalStateException(id + " is not a column of " + a.name());
            }
            read.add(ref.column());
            return table.columns().get(ref.column()).name();
        });
        if (read.isEmpty()) {
            return null;
        }
        List<ComputedColumn> columns = computed.computeIfAbsent(a.path(), k -> new ArrayList<>());
        for (ComputedColumn c : columns) {
            if (c.sql().equals(text)) {
                return column(c);
            }
        }
        SqlTable.Column typed;
        try {
            typed = flink.type(a.path(), text);
        } catch (IllegalArgumentException e) {
            if (ours instanceof InvalidQueryException invalid) {
                throw new InvalidQueryException(
                        invalid.getMessage() + " (nor does Flink take " + text + ": " + e.getMessage() + ")",
                        invalid.position());
            }
            throw errors.invalid(
                    node,
                    "flink-ivm leaves " + SqlErrors.plain(node) + " to Flink, which does not take it: " + e.getMessage()
                            + ";");
        }
        if (typed.type().kind() == SqlType.Kind.UNSUPPORTED) {
            throw errors.unsupported(
                    node,
                    SqlErrors.plain(node) + " of type " + typed.type() + " (as Flink types it)",
                    "flink-ivm holds values of types TINYINT, SMALLINT, INT, BIGINT, DECIMAL, FLOAT, DOUBLE, CHAR,"
                            + " VARCHAR, STRING, BOOLEAN, DATE, TIME and TIMESTAMP; CAST it to one of them");
        }
        String name = "ivm$" + columns.size();
        for (int k = columns.size() + 1; table.indexOf(name) >= 0 || named(columns, name); k++) {
            name = "ivm$" + k;
        }
        ComputedColumn c = new ComputedColumn(
                table.columns().size() + columns.size(),
                name,
                text,
                SqlErrors.callName(node),
                typed.type(),
                typed.nullable(),
                new ArrayList<>(read));
        columns.add(c);
        return column(c);
    }

    private static boolean named(List<ComputedColumn> columns, String name) {
        return columns.stream().anyMatch(c -> c.name().equals(name));
    }

    private static RowExpr column(ComputedColumn c) {
        return new RowExpr.Column(c.index(), c.name(), c.type(), c.nullable(), c.sql());
    }

    /** Whether Flink can compute {@code node} in a projection of one table: no subquery, aggregate or window. */
    private static boolean projectable(SqlNode node) {
        if (node instanceof SqlIdentifier id) {
            return !id.isStar();
        }
        if (node instanceof SqlNodeList list) {
            for (SqlNode item : list) {
                if (!projectable(item)) {
                    return false;
                }
            }
            return true;
        }
        if (node instanceof SqlCall call) {
            if (call.getKind() == SqlKind.SELECT
                    || SqlKind.QUERY.contains(call.getKind())
                    || AggregateCompiler.isAggregate(call)) {
                return false;
            }
            for (SqlNode operand : call.getOperandList()) {
                if (operand != null && !projectable(operand)) {
                    return false;
                }
            }
        }
        return true;
    }
}
