package io.flinkivm.examples.cli;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.sql.SqlTranslation;
import java.io.Closeable;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a result as CSV: a header with the free variables and {@code payload}, then one line per tuple;
 * for a query given in SQL, a header with the SELECT list's output names and one line per result row.
 */
final class ResultWriter implements Closeable {
    private final Writer w;
    private final StringBuilder sb = new StringBuilder();
    private final SqlTranslation sql;
    private long rows;

    ResultWriter(Path file, ConjunctiveQuery query) throws IOException {
        this.w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        this.sql = null;
        for (String v : query.head()) {
            Csv.appendField(sb, v).append(',');
        }
        w.append(sb.append("payload\n"));
    }

    /** A writer of the SQL query's rows: the header holds its output names (aliases where given). */
    ResultWriter(Path file, SqlTranslation sql) throws IOException {
        this.w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        this.sql = sql;
        line(sql.columnNames());
    }

    /** Writes a result tuple with its payload: as the tuple and payload, or as the SQL query's row. */
    <T> void result(Tuple t, T payload, Semiring<T> semiring) throws IOException {
        if (sql == null) {
            row(t, semiring.format(payload));
        } else {
            line(sql.outputTexts(t, payload));
            rows++;
        }
    }

    private void line(java.util.List<String> fields) throws IOException {
        w.append(Csv.line(fields)).append('\n');
    }

    void row(Tuple t, String payload) throws IOException {
        sb.setLength(0);
        for (int i = 0; i < t.arity(); i++) {
            Csv.appendField(sb, String.valueOf(t.get(i))).append(',');
        }
        Csv.appendField(sb, payload).append('\n');
        w.append(sb);
        rows++;
    }

    long rows() {
        return rows;
    }

    @Override
    public void close() throws IOException {
        w.close();
    }
}
