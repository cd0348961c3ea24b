package io.flinkivm.examples.cli;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import java.io.Closeable;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a result as CSV: a header with the free variables and {@code payload}, then one line per tuple. */
final class ResultWriter implements Closeable {
    private final Writer w;
    private final StringBuilder sb = new StringBuilder();
    private long rows;

    ResultWriter(Path file, ConjunctiveQuery query) throws IOException {
        this.w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        for (String v : query.head()) {
            Csv.appendField(sb, v).append(',');
        }
        w.append(sb.append("payload\n"));
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
