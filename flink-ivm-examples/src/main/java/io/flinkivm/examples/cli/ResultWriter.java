package io.flinkivm.examples.cli;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.csv.Csv;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.sql.rows.SqlRowChanges;
import io.flinkivm.sql.translate.DistinctGroups;
import io.flinkivm.sql.translate.SqlTranslation;
import java.io.Closeable;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a result as CSV: a header with the free variables and {@code payload}, then one line per tuple;
 * for a query given in SQL, a header with the SELECT list's output names and one line per result row.
 * With triggers ({@link Layout}) each line starts with the trigger's number, and in a changelog with the
 * change's kind.
 */
final class ResultWriter implements Closeable {

    /** What comes before a row's tuple and payload. */
    enum Layout {
        /** Nothing: the final result. */
        RESULT(List.of()),
        /** The trigger: one snapshot of the whole result per trigger. */
        SNAPSHOTS(List.of("trigger")),
        /** The trigger and the change's kind ({@code +I}, {@code +U}, {@code -U}, {@code -D}). */
        CHANGELOG(List.of("trigger", "kind"));

        private final List<String> columns;

        Layout(List<String> columns) {
            this.columns = columns;
        }
    }

    private final Writer w;
    private final StringBuilder sb = new StringBuilder();
    private final SqlTranslation sql;
    /** For SQL: how a Flink job's records become rows of the SELECT list; null for a query. */
    private final SqlRowChanges sqlChanges;

    private final Layout layout;
    private long rows;

    ResultWriter(Path file, ConjunctiveQuery query) throws IOException {
        this(file, query, Layout.RESULT);
    }

    ResultWriter(Path file, ConjunctiveQuery query, Layout layout) throws IOException {
        this.w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        this.sql = null;
        this.sqlChanges = null;
        this.layout = layout;
        List<String> header = new ArrayList<>(layout.columns);
        header.addAll(query.head());
        header.add("payload");
        line(header);
    }

    /** A writer of the SQL query's rows: the header holds its output names (aliases where given). */
    ResultWriter(Path file, SqlTranslation sql) throws IOException {
        this(file, sql, Layout.RESULT);
    }

    ResultWriter(Path file, SqlTranslation sql, Layout layout) throws IOException {
        this.w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        this.sql = sql;
        this.sqlChanges = new SqlRowChanges(sql);
        this.layout = layout;
        List<String> header = new ArrayList<>(layout.columns);
        header.addAll(sql.columnNames());
        line(header);
    }

    Layout layout() {
        return layout;
    }

    /** Writes a result tuple with its payload (layout {@link Layout#RESULT}). */
    <T> void result(Tuple t, T payload, Semiring<T> semiring) throws IOException {
        if (sql != null && sql.isBag()) {
            bagRows(-1, null, t, payload, sql.copies(payload));
            return;
        }
        row(-1, null, t, payload, semiring);
    }

    /** Writes a row of trigger {@code trigger}'s snapshot (layout {@link Layout#SNAPSHOTS}). */
    <T> void snapshotRow(long trigger, Tuple t, T payload, Semiring<T> semiring) throws IOException {
        if (sql != null && sql.isBag()) {
            bagRows(trigger, null, t, payload, sql.copies(payload));
            return;
        }
        row(trigger, null, t, payload, semiring);
    }

    /**
     * Writes a change of trigger {@code trigger} as the in-memory engine reports it (layout
     * {@link Layout#CHANGELOG}): {@code +I} for a new tuple, {@code +U} for a changed one (after {@code -U}
     * with its previous payload if {@code updateBefore}), {@code -D} with its last payload for one that
     * left the result.
     */
    <T> void change(long trigger, ResultChange<T> c, boolean updateBefore, Semiring<T> semiring) throws IOException {
        if (sql != null && sql.isBag()) {
            Object last = c.payload() != null ? c.payload() : c.previous();
            bagRows(
                    trigger,
                    ResultRecord.Kind.INSERT,
                    c.tuple(),
                    last,
                    sql.copies(c.payload()) - sql.copies(c.previous()));
            return;
        }
        if (sql != null && sql.isDistinct() && c.payload() != null && !c.isInsert()) {
            return; // a distinct row whose count changed is still there
        }
        if (c.payload() == null) {
            row(trigger, ResultRecord.Kind.DELETE, c.tuple(), c.previous(), semiring);
        } else if (c.isInsert()) {
            row(trigger, ResultRecord.Kind.INSERT, c.tuple(), c.payload(), semiring);
        } else {
            if (updateBefore) {
                row(trigger, ResultRecord.Kind.UPDATE_BEFORE, c.tuple(), c.previous(), semiring);
            }
            row(trigger, ResultRecord.Kind.UPDATE_AFTER, c.tuple(), c.payload(), semiring);
        }
    }

    /**
     * Writes a row of a Flink job's output under trigger {@code trigger}, as the layout says; for SQL the
     * rows the record stands for ({@link SqlRowChanges}).
     */
    <T> void record(long trigger, ResultRecord<T> r, Semiring<T> semiring) throws IOException {
        if (sqlChanges == null) {
            row(trigger, r.kind(), r.tuple(), r.payload(), semiring);
            return;
        }
        long rows = sqlChanges.rows(r);
        ResultRecord.Kind kind = sqlChanges.kind(r, rows);
        for (long i = 0; i < Math.abs(rows); i++) {
            row(trigger, kind, r.tuple(), r.payload(), semiring);
        }
    }

    /**
     * Writes a group's row of a SQL query with COUNT(DISTINCT ...) under trigger {@code trigger}, of
     * {@code kind} where the layout is a changelog.
     */
    void groupRow(long trigger, ResultRecord.Kind kind, Tuple group, DistinctGroups.Group g) throws IOException {
        row(trigger, kind, group, g, null);
    }

    /**
     * A bag (a plain SELECT) is as many rows of a result tuple as its count: in the in-memory engine's
     * changes, as many rows of {@code kind} as the count grew by, or {@code -D} rows as it fell by.
     */
    private <T> void bagRows(long trigger, ResultRecord.Kind kind, Tuple t, T payload, long copies) throws IOException {
        ResultRecord.Kind rowKind = copies < 0 ? ResultRecord.Kind.DELETE : kind;
        for (long i = 0; i < Math.abs(copies); i++) {
            row(trigger, rowKind, t, payload, null);
        }
    }

    private <T> void row(long trigger, ResultRecord.Kind kind, Tuple t, T payload, Semiring<T> semiring)
            throws IOException {
        sb.setLength(0);
        if (layout != Layout.RESULT) {
            sb.append(trigger).append(',');
        }
        if (layout == Layout.CHANGELOG) {
            sb.append(kind.shortString()).append(',');
        }
        if (sql == null) {
            for (int i = 0; i < t.arity(); i++) {
                Csv.appendField(sb, String.valueOf(t.get(i))).append(',');
            }
            Csv.appendField(sb, semiring.format(payload)).append('\n');
        } else {
            List<String> fields = sql.outputTexts(t, payload);
            for (int i = 0; i < fields.size(); i++) {
                Csv.appendField(sb, fields.get(i)).append(i + 1 < fields.size() ? "," : "\n");
            }
            if (fields.isEmpty()) {
                sb.append('\n');
            }
        }
        w.append(sb);
        rows++;
    }

    private void line(List<String> fields) throws IOException {
        w.append(Csv.line(fields)).append('\n');
    }

    /** Rows written so far (the header not counted). */
    long rows() {
        return rows;
    }

    @Override
    public void close() throws IOException {
        w.close();
    }
}
