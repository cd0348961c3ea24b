package io.flinkivm.sql.translate;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.BooleanSemiring;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.ProductRing;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import io.flinkivm.core.window.Windows;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.Internal;

/**
 * A SQL query translated for flink-ivm: the conjunctive query, the semiring, how each table's rows
 * become inserts ({@link TableInput}: filters, the values kept, payloads), the primary keys the
 * relations inherit from their tables, and how a result tuple with its payload becomes rows of the
 * SELECT list.
 *
 * <p>The table references of one table that filter, keep and pay alike are one relation (a
 * self-join: each row is inserted once per atom); otherwise each is a relation of its own, named
 * {@code table_alias}, and each row of the table is an insert into each of them that it passes.
 *
 * <p>The payload is Boolean for SELECT DISTINCT (or GROUP BY without aggregates), a natural count for
 * a plain SELECT (each joined row as often as it joins: bag semantics) and for COUNT(*) alone, and
 * otherwise a product of a count and one component per sum, minimum, maximum or count of non-NULL
 * values that the aggregates need.
 */
@Internal
public final class SqlTranslation implements Serializable {
    private static final long serialVersionUID = 3L;

    /**
     * A column of the result, in SELECT order.
     *
     * @param name its output name: the alias, else the column's name, else {@code EXPR$i}
     * @param type its SQL type
     * @param head for a grouped (or selected) value: its position in the result tuple, else -1
     * @param codec for a grouped (or selected) value: how its variable's values are held in tuples, else null
     * @param constant for a value fixed by an equality with a literal (or a literal): its Java value, else null
     * @param aggregate for an aggregate: how it is read off the payload, else null
     * @param nullable whether the column can be NULL
     */
    public record OutputColumn(
            String name,
            SqlType type,
            int head,
            TupleCodec codec,
            Object constant,
            AggregateOutput aggregate,
            boolean nullable)
            implements Serializable {
        /** Whether this column is an aggregate. */
        public boolean isAggregate() {
            return aggregate != null;
        }
    }

    /**
     * A primary key a relation inherits from its table: on data where the table's key holds, the
     * relation's tuples at {@code positions} determine the whole tuple.
     *
     * @param relation the relation
     * @param positions the key's positions in the relation's tuples
     * @param columns the table's key columns
     */
    public record RelationKey(String relation, List<Integer> positions, List<String> columns) implements Serializable {
        public RelationKey {
            positions = List.copyOf(positions);
            columns = List.copyOf(columns);
        }
    }

    /** Finds a table's schema by its path in the query ({@code orders} or {@code catalog.db.orders}), or null. */
    @FunctionalInterface
    public interface TableResolver {
        SqlTable resolve(List<String> path);
    }

    /**
     * Types the expressions of one table's row that flink-ivm leaves to Flink ({@link ComputedColumn}), as
     * Flink types them in a projection of the table.
     */
    @FunctionalInterface
    public interface ExpressionTyper {
        /**
         * The type (and nullability) Flink gives {@code expression}, Flink SQL over the columns of the table
         * at {@code path}; the column's name is the expression.
         *
         * @throws IllegalArgumentException with Flink's reason if Flink does not take the expression
         */
        SqlTable.Column type(List<String> path, String expression);
    }

    private final String sql;
    private final ConjunctiveQuery query;
    private final Semiring<?> semiring;
    private final String aggregateText;
    private final List<TableInput> tables;
    private final List<OutputColumn> columns;
    private final boolean bag;
    private final List<RelationKey> keys;
    private final DistinctGroups distinct;

    SqlTranslation(
            String sql,
            ConjunctiveQuery query,
            Semiring<?> semiring,
            String aggregateText,
            List<TableInput> tables,
            List<OutputColumn> columns,
            boolean bag,
            List<RelationKey> keys,
            DistinctGroups distinct) {
        this.sql = sql;
        this.query = query;
        this.semiring = semiring;
        this.aggregateText = aggregateText;
        this.tables = List.copyOf(tables);
        this.columns = List.copyOf(columns);
        this.bag = bag;
        this.keys = List.copyOf(keys);
        this.distinct = distinct;
    }

    /**
     * Translates {@code sql} over the tables {@code catalog} resolves.
     *
     * @throws io.flinkivm.core.query.InvalidQueryException for malformed SQL, unknown tables or columns,
     *     type errors, with the position
     * @throws io.flinkivm.core.plan.UnsupportedPlanException for SQL outside the subset flink-ivm maintains,
     *     naming the construct, its position and what is supported
     */
    public static SqlTranslation of(String sql, TableResolver catalog) {
        return of(sql, catalog, null);
    }

    /**
     * Translates {@code sql} over the tables {@code catalog} resolves, leaving to Flink each expression of one
     * table's row that flink-ivm does not evaluate itself (any function of Flink's, a user-defined one): the table
     * is then read through a projection that computes it ({@link TableInput#computedColumns()}).
     *
     * @param flink types such expressions as Flink does; null refuses them, as {@link #of(String, TableResolver)}
     * @throws io.flinkivm.core.query.InvalidQueryException for malformed SQL, unknown tables or columns, type
     *     errors and expressions that Flink does not take either, with the position
     * @throws io.flinkivm.core.plan.UnsupportedPlanException for SQL outside the subset
     */
    public static SqlTranslation of(String sql, TableResolver catalog, ExpressionTyper flink) {
        return new SqlTranslator(sql, catalog, flink).translate();
    }

    /** Translates {@code sql} over the tables of {@code schemas} (by name, e.g. from {@link SqlSchemas#parse}). */
    public static SqlTranslation of(String sql, Map<String, SqlTable> schemas) {
        return of(sql, path -> path.size() == 1 ? schemas.get(path.get(0)) : null);
    }

    public String sql() {
        return sql;
    }

    /** The conjunctive query that flink-ivm maintains. */
    public ConjunctiveQuery query() {
        return query;
    }

    /** The semiring of the payloads: boolean (distinct rows), natural (counts), or a product (aggregates). */
    public Semiring<?> semiring() {
        return semiring;
    }

    /**
     * The semiring to plan over for {@code inputs}: {@link #semiring()} when every input is insert-only,
     * else its ring ({@link Semirings#ringFor}: the integers for counts, sums and bags, the product ring
     * for several aggregates; the integers for distinct rows too, a count per row that says when its
     * last derivation leaves), whose payloads {@link #payloadIn} makes from the translation's.
     */
    public Semiring<?> semiringFor(Inputs inputs) {
        if (inputs.isInsertOnly()) {
            return semiring;
        }
        return isDistinct() ? IntegerRing.INSTANCE : Objects.requireNonNull(Semirings.ringFor(semiring), "ring");
    }

    /**
     * A payload of the translation ({@link TableInput.Insert#payload()}) in {@code planSemiring}: itself,
     * or for the ring of {@link #semiringFor} the ring's payload of the same value (a distinct row's
     * {@code true} is a count of one).
     */
    public static <T> T payloadIn(Semiring<T> planSemiring, Object payload) {
        if (planSemiring instanceof ProductRing ring && payload instanceof Product product) {
            return planSemiring.payloadClass().cast(ring.lift(product));
        }
        if (planSemiring instanceof IntegerRing && payload instanceof Boolean present) {
            return planSemiring.payloadClass().cast(present ? 1L : 0L);
        }
        return planSemiring.payloadClass().cast(payload);
    }

    /** Whether the result is distinct rows: SELECT DISTINCT, or GROUP BY without aggregates. */
    public boolean isDistinct() {
        return semiring instanceof BooleanSemiring;
    }

    /** Whether the result is a bag: a plain SELECT, each result tuple as many rows as its count. */
    public boolean isBag() {
        return bag;
    }

    /**
     * How COUNT(DISTINCT ...) is folded per group from the result tuples, whose head holds the distinct
     * arguments after the grouped values; null if the query has none. Where it is not null, a result row
     * is a group's ({@link #outputRow} of a {@link DistinctGroups.Group}), not a result tuple's.
     */
    public DistinctGroups distinctGroups() {
        return distinct;
    }

    /** The primary keys the relations inherit from their tables (where the query keeps the key columns). */
    public List<RelationKey> keys() {
        return keys;
    }

    /**
     * The windows of the relations that window table functions in FROM feed ({@link Windows#NONE}: none):
     * their atoms end with the event time, {@code window_start} and {@code window_end}.
     */
    public Windows windows() {
        Windows out = Windows.NONE;
        for (TableInput t : tables) {
            for (TableInput.RelationInput r : t.relationInputs()) {
                if (r.window() != null) {
                    out = out.with(r.window());
                }
            }
        }
        return out;
    }

    /** The tables the query reads, in FROM order (each once). */
    public List<TableInput> tables() {
        return tables;
    }

    /**
     * The table of each relation that shares its table's rows with another relation (aliases of one table
     * with different filters, kept columns or payloads), for {@link
     * io.flinkivm.core.plan.MaintenancePlan#withTables}; empty if every table has one relation.
     */
    public Map<String, String> tablesOfSharedRows() {
        Map<String, String> out = new LinkedHashMap<>();
        for (TableInput t : tables) {
            if (t.relations().size() > 1) {
                for (String r : t.relations()) {
                    out.put(r, t.name());
                }
            }
        }
        return out;
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

    /** The expressions Flink computes for this query, in FROM order of their tables; empty if none. */
    public List<ComputedColumn> computedColumns() {
        List<ComputedColumn> out = new ArrayList<>();
        for (TableInput t : tables) {
            out.addAll(t.computedColumns());
        }
        return out;
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

    /**
     * The values of a result row (Java values of the columns' types, null for NULL) for a result tuple and
     * its payload; where the query has COUNT(DISTINCT ...), for a group ({@link DistinctGroups#group}) and
     * its {@link DistinctGroups.Group}.
     */
    public Object[] outputRow(Tuple tuple, Object payload) {
        Object[] out = new Object[columns.size()];
        for (int i = 0; i < out.length; i++) {
            OutputColumn c = columns.get(i);
            if (c.head() >= 0) {
                out[i] = c.codec().decode(tuple.get(c.head()), c.type());
            } else if (c.isAggregate()) {
                out[i] = c.aggregate().value(payload);
            } else {
                out[i] = c.constant();
            }
        }
        return out;
    }

    /** How many rows a result tuple with this payload is: its count for a bag, else one; none for null. */
    public long copies(Object payload) {
        return payload == null ? 0 : bag ? (Long) payload : 1;
    }

    /** The fields of a result row as text (plain decimals, ISO dates, {@code \N} for NULL), for CSV. */
    public List<String> outputTexts(Tuple tuple, Object payload) {
        Object[] values = outputRow(tuple, payload);
        List<String> out = new ArrayList<>(values.length);
        for (Object v : values) {
            out.add(SqlOutputs.text(v));
        }
        return out;
    }

    /**
     * The translation for {@code explain}: the conjunctive query, the semiring, each table's relations
     * with their filters and payloads, the keys, and the result's columns.
     */
    public String explain() {
        return explain(Inputs.INSERT_ONLY);
    }

    /**
     * {@link #explain()} for a plan over {@code inputs}: where some table has deletes, also the ring the
     * plan runs over ({@link #semiringFor}), and the payloads in it.
     */
    public String explain(Inputs inputs) {
        return SqlExplain.explain(this, aggregateText, semiringFor(inputs));
    }

    @Override
    public String toString() {
        return "SqlTranslation[" + query + " over " + semiring.name() + "]";
    }
}
