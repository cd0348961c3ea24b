package io.flinkivm.examples.cli;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.sql.translate.RejectedRowException;
import io.flinkivm.sql.translate.SqlTable;
import io.flinkivm.sql.translate.SqlTranslation;
import io.flinkivm.sql.translate.SqlType;
import io.flinkivm.sql.translate.TableInput;
import io.flinkivm.sql.translate.TupleCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The lines {@code [kind,]table,value1,...,valueK} of {@code run --sql}: a table row's changes, one per
 * relation of its table whose filter the row passes. The rows of a table with deletes are checked as rows
 * of the table, not as tuples of its relations: a relation keeps only the columns the query needs and folds
 * the rest into the payload, so a delete of a row that was never inserted could match another row's tuple
 * and pass the relations' check ({@link LiveRowCheck}) while taking away values no row has (a SUM goes wrong,
 * a MIN loses a value it does not hold). A {@code -D} or {@code -U} of a row that is not in its table is
 * rejected, whether or not it passes the query's filters.
 */
final class SqlRowLines {
    private final SqlTranslation sql;
    /** The live rows of the tables with deletes, each row a tuple of its columns' values; null if none. */
    private final LiveRowCheck<Long> tableRows;
    /** What Flink computed for the rows of tables with computed columns ({@link FlinkExpressions}), or null. */
    private final FlinkExpressions.Values computed;

    /**
     * The lines of {@code sql}'s tables; {@code changelogTables} are checked row by row; {@code computed} holds
     * the values of the expressions Flink computes (null if the query has none).
     */
    SqlRowLines(SqlTranslation sql, Set<String> changelogTables, FlinkExpressions.Values computed) {
        this.sql = sql;
        this.tableRows = LiveRowCheck.of(IntegerRing.INSTANCE, Inputs.changelog(changelogTables));
        this.computed = computed;
    }

    /** The table that a line of the input with these fields (kind first) deletes or updates rows of, or null. */
    static TableInput changedTable(SqlTranslation sql, List<String> fields) {
        TableInput table = fields.size() > 1 ? sql.table(fields.get(1)) : null;
        return table != null && fields.size() == table.schema().columns().size() + 2 ? table : null;
    }

    /**
     * Passes the changes of a line ({@code fields} after its kind) to {@code sink}, payloads in {@code s} (a
     * ring for deletes).
     *
     * (a row that makes no insert of a relation in {@code marked}, whose key stage rows look up, goes to
     * {@code sink} as dropped)
     *
     * @throws RejectedLineException if the line is not a row of a table of the query, or a delete of a row
     *     that is not there; nothing is recorded then
     */
    <T> void change(
            ChangeKind kind,
            List<String> fields,
            ChangeLines.ChangeSink<T> sink,
            Semiring<T> s,
            long line,
            Set<String> marked)
            throws RejectedLineException {
        if (fields.isEmpty()) {
            throw new RejectedLineException(
                    "expected table,value1,...,valueK but the line has no field after " + kind.shortString());
        }
        String name = fields.get(0);
        TableInput table = sql.table(name);
        if (table == null) {
            List<String> names = new ArrayList<>();
            for (TableInput t : sql.tables()) {
                names.add(t.name());
            }
            throw new RejectedLineException(
                    "unknown table '" + name + "'; the query reads " + String.join(", ", names));
        }
        Object[] values;
        List<TableInput.Insert> inserts;
        try {
            values = table.fromText(fields.subList(1, fields.size()));
            if (!table.computedColumns().isEmpty()) {
                computed.fill(table, values);
            }
            inserts = table.inserts(values);
        } catch (RejectedRowException e) {
            throw new RejectedLineException(e.getMessage());
        }
        Tuple row = tableRows == null ? null : row(table.schema(), values, fields);
        if (row != null) {
            try {
                tableRows.check(kind, name, row, 1L);
            } catch (RejectedLineException e) {
                throw new RejectedLineException("a " + kind.shortString() + " of a row that table " + name
                        + " does not hold (" + String.join(",", fields.subList(1, fields.size())) + "): no earlier line"
                        + " inserted it, or it was deleted; the line is rejected and changes nothing");
            }
        }
        try {
            for (TableInput.Insert insert : inserts) {
                sink.change(
                        kind, insert.relation(), insert.tuple(), SqlTranslation.payloadIn(s, insert.payload()), line);
            }
            if (!marked.isEmpty()) {
                for (TableInput.Insert mark : table.marks(values, marked)) {
                    sink.dropped(kind, mark.relation(), mark.tuple(), line);
                }
            }
        } catch (RejectedLineException e) {
            if (row != null) {
                // The change was rejected: the table's row is as it was before the line.
                tableRows.check(kind.isRetraction() ? ChangeKind.INSERT : ChangeKind.DELETE, name, row, 1L);
            }
            throw e;
        }
    }

    /**
     * A row as a tuple: the values of the columns the query reads as the relations hold them (so 5.0 and 5.00
     * are one value), the text of the others (and of NULL).
     */
    private static Tuple row(SqlTable schema, Object[] values, List<String> fields) {
        Object[] out = new Object[schema.columns().size()];
        for (int i = 0; i < out.length; i++) {
            SqlType type = schema.columns().get(i).type();
            out[i] = values[i] == null ? fields.get(i + 1) : TupleCodec.of(type).encode(values[i], type);
        }
        return Tuple.wrap(out);
    }
}
