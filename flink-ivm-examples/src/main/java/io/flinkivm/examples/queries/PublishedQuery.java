package io.flinkivm.examples.queries;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A published benchmark query as flink-ivm reads it: the text TPC-H or Nexmark publishes, with ORDER BY,
 * LIMIT and INSERT INTO dropped, and the schema of its tables with their primary keys, in the form of the
 * command line's {@code --schema}. Each is a resource {@code io/flinkivm/examples/queries/NAME.sql}: comment
 * lines that say where the text comes from and what was changed, a comment {@code -- schema:} followed by
 * one comment line per table, then the query.
 *
 * @param name the file's name without {@code .sql}, e.g. {@code tpch-q3}
 * @param sql the query (the lines after the comments)
 * @param schema the tables, one per line, separated by semicolons ({@code --schema}'s form)
 * @param tables the tables' names, in the schema's order
 */
public record PublishedQuery(String name, String sql, String schema, List<String> tables) {

    /** TPC-H's queries. */
    public static final List<String> TPCH = List.of("tpch-q1", "tpch-q3", "tpch-q5", "tpch-q9", "tpch-q10", "tpch-q12");

    /** Nexmark's queries. */
    public static final List<String> NEXMARK =
            List.of("nexmark-q3", "nexmark-q15", "nexmark-q16", "nexmark-q17", "nexmark-q20");

    private static final String SCHEMA = "-- schema:";

    public PublishedQuery {
        tables = List.copyOf(tables);
    }

    /** Every published query: {@link #TPCH}, then {@link #NEXMARK}. */
    public static List<String> names() {
        List<String> out = new ArrayList<>(TPCH);
        out.addAll(NEXMARK);
        return out;
    }

    /**
     * The query {@code name} from its resource.
     *
     * @throws IllegalArgumentException if there is no such query
     */
    public static PublishedQuery load(String name) {
        String path = "/io/flinkivm/examples/queries/" + name + ".sql";
        try (InputStream in = PublishedQuery.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalArgumentException(
                        "no published query " + name + "; the queries are " + String.join(", ", names()));
            }
            return parse(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    /** A query file's text as {@link #load} reads it. */
    static PublishedQuery parse(String name, String text) {
        List<String> schema = new ArrayList<>();
        List<String> tables = new ArrayList<>();
        StringBuilder sql = new StringBuilder();
        boolean inSchema = false;
        for (String line : text.split("\n", -1)) {
            if (sql.length() == 0 && line.startsWith("--")) {
                if (line.trim().equals(SCHEMA)) {
                    inSchema = true;
                } else if (inSchema) {
                    String table = line.substring(2).trim();
                    schema.add(table);
                    tables.add(table.substring(0, table.indexOf('(')).trim());
                }
                continue;
            }
            sql.append(line).append('\n');
        }
        if (schema.isEmpty()) {
            throw new IllegalArgumentException("query " + name + " has no '" + SCHEMA + "' comment");
        }
        return new PublishedQuery(name, sql.toString().strip(), String.join("\n", schema), tables);
    }
}
