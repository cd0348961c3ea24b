package io.flinkivm.flink.sql;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A SQL query translated for flink-ivm: the conjunctive query, the semiring, how each table's rows
 * become inserts (the columns kept, the selections and the payload of every atom), and how a result
 * tuple with its payload becomes a row of the SELECT list.
 *
 * <p>A table used by several aliases whose payloads are computed alike is one relation (a self-join:
 * each row is inserted once per atom). Aliases of one table with different payloads (e.g. {@code SUM(a.x)}
 * over {@code t AS a JOIN t AS b}) become one relation per alias, named {@code table_alias}, and each row
 * of the table is an insert into each of them. A relation keeps only the columns the query compares,
 * groups by or selects; columns used only inside the aggregate go into the payload.
 */
public final class SqlTranslation implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The aggregate of the SELECT list. */
    public enum Aggregate {
        /** No aggregate: SELECT DISTINCT, or GROUP BY without an aggregate (Boolean semiring). */
        NONE,
        /** COUNT(*) (natural numbers). */
        COUNT,
        /** SUM (natural numbers). */
        SUM,
        /** MIN (min-plus). */
        MIN,
        /** MAX (max-plus). */
        MAX
    }

    /**
     * A column of the result, in SELECT order.
     *
     * @param name its output name: the alias, else the column's name, else {@code EXPR$i}
     * @param type its SQL type
     * @param head for a grouped (or DISTINCT) column: its position in the result tuple, else -1
     * @param constant for a column fixed by an equality with a literal (or a literal): its tuple value, else null
     */
    public record OutputColumn(String name, SqlType type, int head, Object constant) implements Serializable {
        /** Whether this column is the aggregate. */
        public boolean isAggregate() {
            return head < 0 && constant == null;
        }
    }

    /** One insert made from a table row. */
    public record Insert(String relation, Tuple tuple, Object payload) {}

    /**
     * One relation of the query fed by a table.
     *
     * @param relation the relation's name in the query
     * @param aliases the aliases of the table whose atoms name it
     * @param positions for each of its columns, the index among the table's input values
     * @param payload how the payload comes from a row
     */
    record RelationInput(String relation, List<String> aliases, int[] positions, Payload payload)
            implements Serializable {}

    /** How the rows of one table become inserts. */
    public static final class TableInput implements Serializable {
        private static final long serialVersionUID = 1L;

        private final List<String> path;
        private final SqlTable schema;
        private final int[] columns;
        private final List<RelationInput> relations;
        private final Object one;

        TableInput(List<String> path, SqlTable schema, int[] columns, List<RelationInput> relations, Object one) {
            this.path = List.copyOf(path);
            this.schema = schema;
            this.columns = columns.clone();
            this.relations = List.copyOf(relations);
            this.one = one;
        }

        /** The table's name as the query wrote it (its path). */
        public List<String> path() {
            return path;
        }

        /** The table's name for messages: the path joined by dots. */
        public String name() {
            return String.join(".", path);
        }

        public SqlTable schema() {
            return schema;
        }

        /** The names of the columns a row must provide (the input values), in the table's order. */
        public List<String> inputColumns() {
            List<String> out = new ArrayList<>();
            for (int c : columns) {
                out.add(schema.columns().get(c).name());
            }
            return out;
        }

        /** The relations of the query this table's rows go to. */
        public List<String> relations() {
            List<String> out = new ArrayList<>();
            for (RelationInput r : relations) {
                out.add(r.relation());
            }
            return out;
        }

        /**
         * The input values of a row given as Java values of its {@link #inputColumns()} (as Flink's Table
         * API gives them: Integer for INT, BigDecimal for DECIMAL, LocalDate for DATE, ...).
         */
        public Object[] fromValues(Object[] row) throws RejectedRowException {
            if (row.length != columns.length) {
                throw new RejectedRowException(
                        "expected " + columns.length + " values (" + inputColumns() + "), got " + row.length);
            }
            Object[] out = new Object[columns.length];
            for (int i = 0; i < columns.length; i++) {
                SqlTable.Column c = schema.columns().get(columns[i]);
                try {
                    out[i] = c.type().toTupleValue(row[i]);
                } catch (IllegalArgumentException e) {
                    throw new RejectedRowException("column " + c.name() + " of " + name() + ": " + e.getMessage());
                }
            }
            return out;
        }

        /** The input values of a row given as text, one field per column of the table's schema. */
        public Object[] fromText(List<String> fields) throws RejectedRowException {
            int n = schema.columns().size();
            if (fields.size() != n) {
                throw new RejectedRowException("table " + name() + " has " + n + " column" + (n == 1 ? "" : "s") + " ("
                        + schema.columnList() + "), but the line has " + fields.size() + " value"
                        + (fields.size() == 1 ? "" : "s"));
            }
            Object[] out = new Object[columns.length];
            for (int i = 0; i < columns.length; i++) {
                SqlTable.Column c = schema.columns().get(columns[i]);
                try {
                    out[i] = c.type().parseTupleValue(fields.get(columns[i]));
                } catch (IllegalArgumentException e) {
                    throw new RejectedRowException("column " + c.name() + " of " + name() + ": " + e.getMessage());
                }
            }
            return out;
        }

        /** The inserts of a row (one per relation fed by this table), from its input values. */
        public List<Insert> inserts(Object[] values) throws RejectedRowException {
            List<Insert> out = new ArrayList<>(relations.size());
            for (RelationInput r : relations) {
                Object[] tuple = new Object[r.positions().length];
                for (int i = 0; i < tuple.length; i++) {
                    tuple[i] = values[r.positions()[i]];
                }
                out.add(new Insert(r.relation(), Tuple.wrap(tuple), r.payload().value(values, one)));
            }
            return out;
        }

        List<RelationInput> relationInputs() {
            return relations;
        }
    }

    private final String sql;
    private final ConjunctiveQuery query;
    private final Semiring<?> semiring;
    private final Aggregate aggregate;
    private final String aggregateText;
    private final List<TableInput> tables;
    private final List<OutputColumn> columns;
    /** SUM, MIN, MAX over exact values: the result's payload counts units of 10^-scale. */
    private final int scale;

    SqlTranslation(
            String sql,
            ConjunctiveQuery query,
            Semiring<?> semiring,
            Aggregate aggregate,
            String aggregateText,
            List<TableInput> tables,
            List<OutputColumn> columns,
            int scale) {
        this.sql = sql;
        this.query = query;
        this.semiring = semiring;
        this.aggregate = aggregate;
        this.aggregateText = aggregateText;
        this.tables = List.copyOf(tables);
        this.columns = List.copyOf(columns);
        this.scale = scale;
    }

    /**
     * Translates {@code sql} over the tables {@code catalog} resolves.
     *
     * @throws io.flinkivm.core.query.InvalidQueryException for malformed SQL, unknown tables or columns,
     *     with the position
     * @throws io.flinkivm.core.plan.UnsupportedPlanException for SQL outside the subset flink-ivm maintains,
     *     naming the construct, its position and what is supported
     */
    public static SqlTranslation of(String sql, TableResolver catalog) {
        return new SqlTranslator(sql, catalog).translate();
    }

    /** Translates {@code sql} over the tables of {@code schemas} (by name, e.g. from {@link SqlSchemas#parse}). */
    public static SqlTranslation of(String sql, Map<String, SqlTable> schemas) {
        return of(sql, path -> path.size() == 1 ? schemas.get(path.get(0)) : null);
    }

    /** Finds a table's schema by its path in the query ({@code orders} or {@code catalog.db.orders}), or null. */
    @FunctionalInterface
    public interface TableResolver {
        SqlTable resolve(List<String> path);
    }

    public String sql() {
        return sql;
    }

    /** The conjunctive query that flink-ivm maintains. */
    public ConjunctiveQuery query() {
        return query;
    }

    /** The semiring of the payloads: natural (COUNT, SUM), min-plus (MIN), max-plus (MAX), boolean (none). */
    public Semiring<?> semiring() {
        return semiring;
    }

    public Aggregate aggregate() {
        return aggregate;
    }

    /** The tables the query reads, in FROM order (each once). */
    public List<TableInput> tables() {
        return tables;
    }

    /** The input of the table whose path joined by dots is {@code name}, or null. */
    public TableInput table(String name) {
        for (TableInput t : tables) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }

    /** The result's columns, in SELECT order. */
    public List<OutputColumn> columns() {
        return columns;
    }

    /** The result's column names, in SELECT order. */
    public List<String> columnNames() {
        List<String> out = new ArrayList<>();
        for (OutputColumn c : columns) {
            out.add(c.name());
        }
        return out;
    }

    /** The values of a result row (Java values of the columns' types) for a result tuple and its payload. */
    public Object[] outputRow(Tuple tuple, Object payload) {
        Object[] out = new Object[columns.size()];
        for (int i = 0; i < out.length; i++) {
            OutputColumn c = columns.get(i);
            if (c.head() >= 0) {
                out[i] = c.type().fromTupleValue(tuple.get(c.head()));
            } else if (c.constant() != null) {
                out[i] = c.type().fromTupleValue(c.constant());
            } else {
                out[i] = aggregateValue(payload);
            }
        }
        return out;
    }

    /** The fields of a result row as text (plain decimals, ISO dates), for CSV. */
    public List<String> outputTexts(Tuple tuple, Object payload) {
        Object[] values = outputRow(tuple, payload);
        List<String> out = new ArrayList<>(values.length);
        for (Object v : values) {
            out.add(v instanceof BigDecimal d ? d.toPlainString() : String.valueOf(v));
        }
        return out;
    }

    private Object aggregateValue(Object payload) {
        return switch (aggregate) {
            case COUNT -> payload;
            case SUM -> scale == 0 && isBigint() ? payload : BigDecimal.valueOf((Long) payload, scale);
            case MIN, MAX -> {
                OutputColumn c = aggregateColumn();
                if (c.type().isApproximate()) {
                    yield payload;
                }
                long units = (long) (double) (Double) payload;
                yield c.type().kind() == SqlType.Kind.BIGINT ? (Object) units : BigDecimal.valueOf(units, scale);
            }
            case NONE -> throw new IllegalStateException("no aggregate in " + sql);
        };
    }

    private boolean isBigint() {
        return aggregateColumn().type().kind() == SqlType.Kind.BIGINT;
    }

    private OutputColumn aggregateColumn() {
        for (OutputColumn c : columns) {
            if (c.isAggregate()) {
                return c;
            }
        }
        throw new IllegalStateException("no aggregate column in " + sql);
    }

    /**
     * The translation for {@code explain}: the conjunctive query, the semiring, each table's relations
     * with their payloads, and the result's columns.
     */
    public String explain() {
        StringBuilder sb = new StringBuilder("SQL translation:\n");
        sb.append("  query:    ").append(query).append('\n');
        sb.append("  semiring: ")
                .append(semiring.name())
                .append(" (")
                .append(aggregateText)
                .append(")\n");
        sb.append("  tables:\n");
        String one = formatOne(semiring) + " (the semiring's one)";
        for (TableInput t : tables) {
            sb.append("    ")
                    .append(t.name())
                    .append(": columns ")
                    .append(t.inputColumns().isEmpty() ? "none" : String.join(", ", t.inputColumns()))
                    .append('\n');
            for (RelationInput r : t.relationInputs()) {
                sb.append("      → ")
                        .append(r.relation())
                        .append(" (")
                        .append(r.aliases().size() == 1 ? "alias " : "aliases ")
                        .append(String.join(", ", r.aliases()))
                        .append("), payload ")
                        .append(r.payload().describe(one))
                        .append('\n');
            }
        }
        sb.append("  result:   ");
        for (int i = 0; i < columns.size(); i++) {
            OutputColumn c = columns.get(i);
            sb.append(i == 0 ? "" : ", ")
                    .append(c.name())
                    .append(' ')
                    .append(c.type())
                    .append(" = ");
            if (c.head() >= 0) {
                sb.append(query.head().get(c.head()));
            } else if (c.constant() != null) {
                sb.append(c.type().format(c.constant())).append(" (constant)");
            } else {
                sb.append("payload").append(scale > 0 ? " / 10^" + scale : "");
            }
        }
        sb.append('\n');
        if (aggregate == Aggregate.SUM) {
            sb.append("  note:     a group whose SUM is 0 is not in the view (0 is the semiring's zero: absent)\n");
        }
        if (query.head().isEmpty() && aggregate != Aggregate.NONE) {
            sb.append("  note:     without GROUP BY, the view has no row until some row joins (SQL gives one row"
                    + " with COUNT 0 or NULL)\n");
        }
        return sb.toString();
    }

    private static <T> String formatOne(Semiring<T> s) {
        return s.format(s.one());
    }

    @Override
    public String toString() {
        return "SqlTranslation[" + query + " over " + semiring.name() + "]";
    }
}
