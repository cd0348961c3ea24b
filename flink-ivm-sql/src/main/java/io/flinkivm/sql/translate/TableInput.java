package io.flinkivm.sql.translate;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.ProductSemiring;
import io.flinkivm.core.window.WindowAssignment;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;

/**
 * How the rows of one table become inserts, evaluated where a row enters: each relation the table
 * feeds first applies its filter (the table's conditions of WHERE and ON, in SQL's three-valued logic:
 * a row whose condition is not TRUE leaves no trace), then takes the values it keeps (the columns and
 * expressions the query joins on, groups by or selects) and computes the row's payload.
 */
@Internal
public final class TableInput implements Serializable {
    private static final long serialVersionUID = 2L;

    /** One insert made from a table row. */
    public record Insert(String relation, Tuple tuple, Object payload) {}

    /**
     * One relation of the query fed by this table.
     *
     * @param relation the relation's name in the query
     * @param aliases the aliases of the table whose atoms name it
     * @param filter the condition a row must meet (TRUE), null for none
     * @param layout the values of a row that make the relation's tuple
     * @param codecs per layout value: how its variable's values are held in tuples
     * @param joins per layout value: a NULL there never joins, so the row is filtered out
     * @param keys per layout value: a primary-key column, where a NULL is an error
     * @param factors the payload's components after the count, per component (a product), else empty
     * @param one the payload of a row when there are no factors (the semiring's one)
     * @param window the relation's windows (the last layout value is then the event time, and the
     *     ingest appends {@code window_start} and {@code window_end}), or null
     */
    record RelationInput(
            String relation,
            List<String> aliases,
            RowExpr filter,
            List<RowExpr> layout,
            List<TupleCodec> codecs,
            boolean[] joins,
            boolean[] keys,
            List<Factor> factors,
            ProductSemiring product,
            Object one,
            WindowAssignment window)
            implements Serializable {

        /** The payload of a row. */
        Object payload(Object[] row) throws RejectedRowException {
            if (product == null) {
                return one;
            }
            long[] values = new long[factors.size() + 1];
            Object[] objects = product.hasObjects() ? new Object[values.length] : null;
            values[0] = 1;
            for (int i = 0; i < factors.size(); i++) { // per row: no iterator
                factors.get(i).apply(row, values, objects, i + 1);
            }
            return product.payload(values, objects);
        }
    }

    private final List<String> path;
    private final SqlTable schema;
    /** The expressions Flink computes, as columns after the table's own. */
    private final List<ComputedColumn> computed;
    /** The input columns, positions in a row's values: the table's columns, then computed ones. */
    private final int[] columns;
    /** The table's columns that {@link #fromText} reads: the input columns and those the computed ones read. */
    private final int[] textColumns;

    private final List<RelationInput> relations;

    TableInput(
            List<String> path,
            SqlTable schema,
            List<ComputedColumn> computed,
            int[] columns,
            List<RelationInput> relations) {
        this.path = List.copyOf(path);
        this.schema = schema;
        this.computed = List.copyOf(computed);
        this.columns = columns.clone();
        this.relations = List.copyOf(relations);
        Set<Integer> text = new TreeSet<>();
        for (int c : columns) {
            if (c < schema.columns().size()) {
                text.add(c);
            } else {
                text.addAll(computed.get(c - schema.columns().size()).arguments());
            }
        }
        this.textColumns = text.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The table's name as the query wrote it (its path). */
    public List<String> path() {
        return path;
    }

    /** The table's name for messages: the path joined by dots. */
    public String name() {
        return String.join(".", path);
    }

    /** The table's own columns, as the catalog gives them (without {@link #computedColumns()}). */
    public SqlTable schema() {
        return schema;
    }

    /**
     * The names of the columns a row must provide (the input values): the table's, in its order, then the
     * {@link #computedColumns()} among them.
     */
    public List<String> inputColumns() {
        List<String> out = new ArrayList<>();
        for (int c : columns) {
            out.add(column(c).name());
        }
        return out;
    }

    /**
     * The expressions Flink computes for this table's relations, each a column of the projection the table is
     * read through ({@link #projection()}); empty if none. Only those among the {@link #inputColumns()} are read.
     */
    public List<ComputedColumn> computedColumns() {
        List<ComputedColumn> out = new ArrayList<>();
        for (int c : columns) {
            if (c >= schema.columns().size()) {
                out.add(computed.get(c - schema.columns().size()));
            }
        }
        return out;
    }

    /** Whether the input column {@code i} is computed by Flink ({@link #computedColumns()}). */
    public boolean isComputed(int i) {
        return columns[i] >= schema.columns().size();
    }

    /** The Flink SQL text of the input column {@code i} in the projection: its quoted name, or its expression. */
    public String inputSql(int i) {
        int c = columns[i];
        return c < schema.columns().size()
                ? quote(schema.columns().get(c).name())
                : computed.get(c - schema.columns().size()).sql();
    }

    /**
     * The projection this table's rows are read through, as Flink SQL: its input columns, each computed
     * column as its expression with its name.
     */
    public String projection() {
        StringBuilder sb = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(inputSql(i));
            if (columns[i] >= schema.columns().size()) {
                sb.append(" AS ").append(quote(column(columns[i]).name()));
            }
        }
        if (columns.length == 0) {
            sb.append("*");
        }
        StringBuilder from = new StringBuilder();
        for (String p : path) {
            from.append(from.length() == 0 ? "" : ".").append(quote(p));
        }
        return sb.append(" FROM ").append(from).toString();
    }

    private static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** The column at {@code index} of a row's values: the table's, or a computed one. */
    private SqlTable.Column column(int index) {
        int own = schema.columns().size();
        return index < own
                ? schema.columns().get(index)
                : computed.get(index - own).asColumn();
    }

    /** The relations of the query this table's rows go to. */
    public List<String> relations() {
        List<String> out = new ArrayList<>();
        for (RelationInput r : relations) {
            out.add(r.relation());
        }
        return out;
    }

    /** The relations' inputs, in the order of {@link #relations()}. */
    List<RelationInput> relationInputs() {
        return relations;
    }

    /**
     * The condition a row must meet for some relation to take it, as Flink SQL text for the table's own
     * filter ({@link PushedFilter}); null where Flink cannot take it or every row is taken.
     */
    public String pushedFilter() {
        return PushedFilter.of(this);
    }

    /**
     * This table's conversion behind Flink's {@code Calc} with the {@link #pushedFilter}, where the table
     * feeds one relation: that relation's filter has then been applied, so it is not evaluated again and
     * the columns only it reads are not input columns (Flink drops them after its filter). This table
     * itself where it feeds several relations (each still applies its own filter) or has no filter.
     */
    public TableInput prefiltered() {
        if (relations.size() != 1 || relations.get(0).filter() == null) {
            return this;
        }
        RelationInput r = relations.get(0);
        Set<Integer> read = new TreeSet<>();
        r.layout().forEach(e -> RowExprs.columns(e, read));
        r.factors().forEach(f -> f.columns(read));
        int[] kept = Arrays.stream(columns).filter(read::contains).toArray();
        RelationInput unfiltered = new RelationInput(
                r.relation(),
                r.aliases(),
                null,
                r.layout(),
                r.codecs(),
                r.joins(),
                r.keys(),
                r.factors(),
                r.product(),
                r.one(),
                r.window());
        return new TableInput(path, schema, computed, kept, List.of(unfiltered));
    }

    /**
     * A row's values from Java values of its {@link #inputColumns()} (as Flink's Table API gives them:
     * Integer for INT, BigDecimal for DECIMAL, LocalDate for DATE, null for NULL, ...).
     */
    public Object[] fromValues(Object[] row) throws RejectedRowException {
        if (row.length != columns.length) {
            throw new RejectedRowException(
                    "expected " + columns.length + " values (" + inputColumns() + "), got " + row.length);
        }
        Object[] out = new Object[width()];
        for (int i = 0; i < columns.length; i++) {
            SqlTable.Column c = column(columns[i]);
            try {
                out[columns[i]] = SqlValues.fromJava(row[i], c.type());
            } catch (IllegalArgumentException e) {
                throw new RejectedRowException("column " + c.name() + " of " + name() + ": " + e.getMessage());
            }
        }
        return out;
    }

    /** The length of a row's values ({@link #fromValues}): the table's columns, then the computed ones. */
    public int width() {
        return schema.columns().size() + computed.size();
    }

    /**
     * The value of the table's column {@code column} in a row's {@code values} as Flink's Table API takes it
     * (Integer for INT, BigDecimal for DECIMAL, LocalDate for DATE, ...): an argument of a computed column.
     */
    public Object javaValue(Object[] values, int column) {
        return SqlOutputs.toJava(values[column], schema.columns().get(column).type());
    }

    /**
     * Sets the value of {@code computed} in a row's {@code values} from the value Flink computed (a Java value
     * of its type, as Flink's Table API gives it; null for NULL).
     *
     * @throws RejectedRowException if the value is not of the column's type
     */
    public void setComputed(Object[] values, ComputedColumn computed, Object javaValue) throws RejectedRowException {
        try {
            values[computed.index()] = SqlValues.fromJava(javaValue, computed.type());
        } catch (IllegalArgumentException e) {
            throw new RejectedRowException(computed.sql() + " of " + name() + ": " + e.getMessage());
        }
    }

    /** The number of input columns ({@link #inputColumns()}). */
    public int inputCount() {
        return columns.length;
    }

    /** The position in the table of the {@code i}-th input column ({@link #inputColumns()}). */
    public int inputColumn(int i) {
        return columns[i];
    }

    /** The type of the {@code i}-th input column ({@link #inputColumns()}). */
    public SqlType inputType(int i) {
        return column(columns[i]).type();
    }

    /**
     * A row's values from text, one field per column of the table's schema ({@code \N} for NULL, and
     * an empty field for NULL in a column that is not a string): the input columns and the columns the
     * {@link #computedColumns()} read; the computed values are null (Flink computes them: {@link #setComputed}).
     */
    public Object[] fromText(List<String> fields) throws RejectedRowException {
        int n = schema.columns().size();
        if (fields.size() != n) {
            throw new RejectedRowException("table " + name() + " has " + n + " column" + (n == 1 ? "" : "s") + " ("
                    + schema.columnList() + "), but the line has " + fields.size() + " value"
                    + (fields.size() == 1 ? "" : "s"));
        }
        Object[] out = new Object[width()];
        for (int c : textColumns) {
            SqlTable.Column column = schema.columns().get(c);
            try {
                out[c] = SqlValues.fromText(fields.get(c), column.type());
            } catch (IllegalArgumentException e) {
                throw new RejectedRowException("column " + column.name() + " of " + name() + ": " + e.getMessage());
            }
        }
        return out;
    }

    /**
     * The inserts of a row, one per relation whose filter it passes; none if it passes no filter.
     *
     * @throws RejectedRowException if a value cannot be a tuple value or a payload (NULL in a primary
     *     key, a payload beyond 64 bits, a division by zero, ...)
     */
    public List<Insert> inserts(Object[] values) throws RejectedRowException {
        List<Insert> out = new ArrayList<>(relations.size());
        try {
            for (int i = 0; i < relations.size(); i++) { // per row: no iterator
                RelationInput r = relations.get(i);
                if (r.filter() != null && !r.filter().isTrue(values)) {
                    continue;
                }
                Tuple tuple = tuple(r, values);
                if (tuple != null) {
                    out.add(new Insert(r.relation(), tuple, r.payload(values)));
                }
            }
        } catch (ArithmeticException e) {
            throw new RejectedRowException(e.getMessage());
        }
        return out;
    }

    /**
     * The marks of a row for the relations in {@code marked} that it makes no insert of (their filter
     * does not take it, or a NULL in a column they join on means it never joins): the tuple each would
     * have, NULL where a column is NULL, for the key stage that keeps a mark of it, so that the rows that
     * look it up are dropped at once; none for a relation where a key column is NULL or a value cannot be
     * computed (no row can look that up). Their payloads are null.
     */
    public List<Insert> marks(Object[] values, Set<String> marked) {
        List<Insert> out = new ArrayList<>(0);
        for (int i = 0; i < relations.size(); i++) { // per row: no iterator
            RelationInput r = relations.get(i);
            if (!marked.contains(r.relation())) {
                continue;
            }
            try {
                if ((r.filter() == null || r.filter().isTrue(values)) && tuple(r, values) != null) {
                    continue;
                }
                Tuple mark = markTuple(r, values);
                if (mark != null) {
                    out.add(new Insert(r.relation(), mark, null));
                }
            } catch (RejectedRowException | RuntimeException e) {
                // A row whose values cannot be computed makes no insert and no mark: inserts() rejects it.
            }
        }
        return out;
    }

    /** The relation's tuple of a row that makes no insert, NULL where a column is NULL; null if a key column is. */
    private Tuple markTuple(RelationInput r, Object[] values) {
        Object[] tuple = new Object[r.layout().size()];
        for (int i = 0; i < tuple.length; i++) {
            RowExpr e = r.layout().get(i);
            Object v = e.eval(values);
            if (v == null && r.keys()[i]) {
                return null;
            }
            tuple[i] = v == null ? SqlType.NULL_TUPLE_VALUE : r.codecs().get(i).encode(v, e.type());
        }
        return Tuple.wrap(tuple);
    }

    /** The relation's tuple of a row, or null if a NULL means it never joins. */
    private Tuple tuple(RelationInput r, Object[] values) throws RejectedRowException {
        Object[] tuple = new Object[r.layout().size()];
        for (int i = 0; i < tuple.length; i++) {
            RowExpr e = r.layout().get(i);
            Object v = e.eval(values);
            if (v == null) {
                if (r.joins()[i]) {
                    return null;
                }
                if (r.keys()[i]) {
                    throw new RejectedRowException(
                            "NULL in " + e.text() + ", a column of the primary key of " + name());
                }
                tuple[i] = SqlType.NULL_TUPLE_VALUE;
            } else {
                try {
                    tuple[i] = r.codecs().get(i).encode(v, e.type());
                } catch (IllegalArgumentException ex) {
                    throw new RejectedRowException(e.text() + ": " + ex.getMessage());
                }
            }
        }
        return Tuple.wrap(tuple);
    }
}
