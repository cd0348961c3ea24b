package io.flinkivm.sql;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.DATE;
import static org.apache.flink.table.api.DataTypes.DECIMAL;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;

import io.flinkivm.core.analysis.QueryClassifier;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.sql.translate.SqlSchemas;
import io.flinkivm.sql.translate.SqlTable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;

/**
 * Random star and snowflake schemas with their rows and queries, for differential tests of key tables
 * absorbed. A schema has a fact table {@code sale} keyed by {@code id} that references two to four
 * dimension tables by their primary key {@code id}, one of them possibly twice (two columns: a query
 * joins it under two aliases), one or two of the dimensions referencing a dimension of their own (the
 * second level), and possibly a second fact table {@code refund} that references one of the fact's
 * dimensions (the two facts then share that key: many to many). Four to eight tables. Every table has
 * strings, dates and numbers, NULLs among them; a reference may be NULL or name no row. The rows keep
 * every key, except the violations that {@link #violations} adds.
 *
 * <p>A query joins the fact to some of its dimensions (a second-level one through its dimension, the
 * twice-referenced one possibly under two aliases), possibly to the second fact on the shared
 * reference, filters dimensions (and the fact), and selects MIN and MAX of strings and dates, SUM,
 * COUNT, COUNT(DISTINCT ...) and FILTER clauses, grouped by columns of any table or globally. Each
 * query also gives the query that absorbing every dimension into the facts leaves ({@link
 * Query#absorbed()}: only the facts' atoms, with the variables the head needs), and whether that one is
 * p-hierarchical, so O(1) per insert where the keys hold: computed here from the schema's shape, not by
 * the planner.
 */
final class SnowflakeSchemaGenerator {

    /** What a column holds: a key or a reference (BIGINT), a string, a date, an integer, a decimal. */
    enum Family {
        ID,
        STRING,
        DATE,
        NUMBER,
        DECIMAL
    }

    /** The part a table plays in the schema. */
    enum Role {
        FACT,
        SECOND_FACT,
        DIMENSION,
        SUB_DIMENSION
    }

    /** What a generated query exercises. */
    enum Feature {
        MIN_STRING,
        MAX_STRING,
        MIN_DATE,
        MAX_DATE,
        SUM,
        COUNT,
        COUNT_DISTINCT,
        FILTER_CLAUSE,
        DIMENSION_FILTER,
        SECOND_LEVEL,
        SELF_JOIN,
        SECOND_FACT,
        GROUPED,
        GLOBAL,
        CONSTANT_TIME,
        NOT_CONSTANT_TIME
    }

    /**
     * A column.
     *
     * @param references the table whose key it references, or null
     */
    record Column(String name, Family family, String references) {}

    /** A table: its first column is its primary key {@code id}. */
    record Table(String name, Role role, List<Column> columns) {
        Table {
            columns = List.copyOf(columns);
        }

        List<String> columnNames() {
            return columns.stream().map(Column::name).toList();
        }

        /** Its row type: {@code id BIGINT NOT NULL}, the other columns nullable. */
        DataType rowType() {
            List<org.apache.flink.table.api.DataTypes.Field> fields = new ArrayList<>();
            for (Column c : columns) {
                DataType type = switch (c.family()) {
                    case ID, NUMBER -> BIGINT();
                    case STRING -> STRING();
                    case DATE -> DATE();
                    case DECIMAL -> DECIMAL(10, 2);
                };
                fields.add(FIELD(c.name(), c.name().equals("id") ? type.notNull() : type));
            }
            return ROW(fields.toArray(new org.apache.flink.table.api.DataTypes.Field[0]));
        }

        /** The table as the command line's {@code --schema} writes it, with its primary key. */
        String schemaText() {
            List<String> parts = new ArrayList<>();
            for (Column c : columns) {
                String type = switch (c.family()) {
                    case ID, NUMBER -> "BIGINT";
                    case STRING -> "STRING";
                    case DATE -> "DATE";
                    case DECIMAL -> "DECIMAL(10, 2)";
                };
                parts.add(c.name() + " " + type + (c.name().equals("id") ? " NOT NULL" : ""));
            }
            return name + "(" + String.join(", ", parts) + ", PRIMARY KEY (id))";
        }

        /** Its schema in the catalog: the row type and {@code PRIMARY KEY (id) NOT ENFORCED}. */
        Schema schema() {
            return Schema.newBuilder()
                    .fromRowDataType(rowType())
                    .primaryKey("id")
                    .build();
        }

        Column column(String name) {
            for (Column c : columns) {
                if (c.name().equals(name)) {
                    return c;
                }
            }
            throw new IllegalArgumentException(name + " is no column of " + this.name);
        }
    }

    /**
     * A schema.
     *
     * @param tables the fact first, then the second fact (if any), the dimensions and the second level
     * @param shared the dimension that the second fact references too, or null without a second fact
     * @param twice the dimension that the fact references twice, or null
     */
    record Snowflake(List<Table> tables, String shared, String twice) {
        Table table(String name) {
            for (Table t : tables) {
                if (t.name().equals(name)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("no table " + name);
        }

        Table fact() {
            return tables.get(0);
        }

        /** The tables as the SQL front end resolves names against them. */
        Map<String, SqlTable> sqlTables() {
            return SqlSchemas.parse(
                    String.join("; ", tables.stream().map(Table::schemaText).toList()));
        }

        /** The dimensions and the second level: the tables whose keys rows look up. */
        List<Table> keyTables() {
            return tables.stream()
                    .filter(t -> t.role() == Role.DIMENSION || t.role() == Role.SUB_DIMENSION)
                    .toList();
        }

        @Override
        public String toString() {
            List<String> out = new ArrayList<>();
            for (Table t : tables) {
                out.add(t.name() + t.columnNames());
            }
            return String.join(" ", out);
        }
    }

    /**
     * A table of a query: its alias, its table, and the alias and column that look it up by its key
     * (null for the fact and the second fact).
     */
    record Ref(String alias, Table table, Ref parent, String column) {}

    /**
     * A generated query.
     *
     * @param template its text with each table written {@code {name}}: {@link #sql} names the tables
     * @param tables the tables it reads
     * @param absorbed the datalog query that absorbing its dimensions leaves
     * @param constantTime whether {@code absorbed} is p-hierarchical (O(1) per insert where the keys hold)
     */
    record Query(String template, Set<Feature> features, Set<String> tables, String absorbed, boolean constantTime) {
        String sql() {
            return sql(UnaryOperator.identity());
        }

        /** The text with each table named {@code names.apply(table)}. */
        String sql(UnaryOperator<String> names) {
            String out = template;
            for (String t : tables) {
                out = out.replace("{" + t + "}", names.apply(t));
            }
            return out;
        }
    }

    private static final String[] DIMENSIONS = {"product", "store", "customer", "promo"};
    private static final String[] SUB_DIMENSIONS = {"brand", "city"};
    static final LocalDate EPOCH = LocalDate.of(2024, 1, 1);

    /** Strings whose order by code point and by UTF-16 unit differ, an empty one, one with a quote. */
    static final String[] STRINGS = {
        "alpha",
        "Beta",
        "gamma ray",
        "",
        "\u00e9t\u00e9",
        SqlMinMaxITCase.FULLWIDTH_A,
        SqlMinMaxITCase.BEYOND_FFFF,
        "it's",
        "beta"
    };

    private final Random random;

    SnowflakeSchemaGenerator(Random random) {
        this.random = random;
    }

    // ---- schemas ----

    /** A random schema of four to eight tables. */
    Snowflake schema() {
        int dimensions = 2 + random.nextInt(3);
        int subs = 1 + random.nextInt(2);
        boolean secondFact = random.nextInt(3) > 0;
        String twice = random.nextInt(4) > 0 ? DIMENSIONS[random.nextInt(dimensions)] : null;
        String shared = secondFact ? DIMENSIONS[random.nextInt(dimensions)] : null;
        List<Table> dims = new ArrayList<>();
        List<Table> second = new ArrayList<>();
        for (int s = 0; s < subs; s++) {
            second.add(new Table(
                    SUB_DIMENSIONS[s],
                    Role.SUB_DIMENSION,
                    List.of(
                            new Column("id", Family.ID, null),
                            new Column("label", Family.STRING, null),
                            new Column("opened", Family.DATE, null),
                            new Column("tier", Family.NUMBER, null))));
        }
        for (int d = 0; d < dimensions; d++) {
            List<Column> columns = new ArrayList<>(List.of(
                    new Column("id", Family.ID, null),
                    new Column("name", Family.STRING, null),
                    new Column("since", Family.DATE, null),
                    new Column("score", Family.NUMBER, null)));
            // The first dimensions have the second level's tables as their own dimension.
            if (d < subs) {
                columns.add(new Column(SUB_DIMENSIONS[d] + "_id", Family.ID, SUB_DIMENSIONS[d]));
            }
            dims.add(new Table(DIMENSIONS[d], Role.DIMENSION, columns));
        }
        List<Column> fact = new ArrayList<>(List.of(new Column("id", Family.ID, null)));
        for (Table d : dims) {
            fact.add(new Column(d.name() + "_id", Family.ID, d.name()));
            if (d.name().equals(twice)) {
                fact.add(new Column(d.name() + "_alt_id", Family.ID, d.name()));
            }
        }
        fact.addAll(List.of(
                new Column("amount", Family.DECIMAL, null),
                new Column("qty", Family.NUMBER, null),
                new Column("note", Family.STRING, null),
                new Column("sold_on", Family.DATE, null)));
        List<Table> tables = new ArrayList<>();
        tables.add(new Table("sale", Role.FACT, fact));
        if (secondFact) {
            tables.add(new Table(
                    "refund",
                    Role.SECOND_FACT,
                    List.of(
                            new Column("id", Family.ID, null),
                            new Column(shared + "_id", Family.ID, shared),
                            new Column("reason", Family.STRING, null),
                            new Column("refunded_on", Family.DATE, null),
                            new Column("units", Family.NUMBER, null))));
        }
        tables.addAll(dims);
        tables.addAll(second);
        return new Snowflake(List.copyOf(tables), shared, twice);
    }

    // ---- rows ----

    /**
     * The rows of every table, keys unique: a dimension's ids 1..n with about one in eight missing (rows
     * that reference it wait for good), a reference one of 1..n+1 or NULL.
     */
    Map<String, List<Row>> rows(Snowflake schema, int facts) {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        for (Table t : schema.tables()) {
            sizes.put(
                    t.name(),
                    switch (t.role()) {
                        case FACT -> facts;
                        case SECOND_FACT -> facts / 3;
                        case DIMENSION -> 6 + random.nextInt(5);
                        case SUB_DIMENSION -> 3 + random.nextInt(3);
                    });
        }
        Map<String, List<Row>> out = new LinkedHashMap<>();
        for (Table t : schema.tables()) {
            List<Row> rows = new ArrayList<>();
            for (long id = 1; id <= sizes.get(t.name()); id++) {
                if (id > 1 && t.role() != Role.FACT && t.role() != Role.SECOND_FACT && random.nextInt(8) == 0) {
                    continue;
                }
                rows.add(row(t, id, sizes));
            }
            out.put(t.name(), rows);
        }
        return out;
    }

    private Row row(Table t, long id, Map<String, Integer> sizes) {
        Object[] values = new Object[t.columns().size()];
        values[0] = id;
        for (int c = 1; c < values.length; c++) {
            Column column = t.columns().get(c);
            boolean isNull = random.nextInt(column.references() != null ? 14 : 9) == 0;
            values[c] = isNull ? null : value(column, sizes);
        }
        return Row.of(values);
    }

    private Object value(Column c, Map<String, Integer> sizes) {
        return switch (c.family()) {
            case ID -> 1L + random.nextInt(sizes.get(c.references()) + 1);
            case STRING -> STRINGS[random.nextInt(STRINGS.length)];
            case DATE -> EPOCH.plusDays(random.nextInt(40) - 10);
            case NUMBER -> (long) (random.nextInt(9) - 2);
            case DECIMAL -> BigDecimal.valueOf(random.nextInt(2001) - 500, 2);
        };
    }

    /**
     * Rows that break the keys of key tables: for about half of the key tables, one or two second rows
     * with the key of a row they have, identical (the first of them, and then one time in three) or not.
     */
    Map<String, List<Row>> violations(Snowflake schema, Map<String, List<Row>> rows) {
        Map<String, Integer> sizes = new LinkedHashMap<>();
        schema.tables().forEach(t -> sizes.put(t.name(), rows.get(t.name()).size()));
        Map<String, List<Row>> out = new LinkedHashMap<>();
        for (Table t : schema.keyTables()) {
            List<Row> extra = new ArrayList<>();
            if (random.nextBoolean() && !rows.get(t.name()).isEmpty()) {
                int n = 1 + random.nextInt(2);
                for (int i = 0; i < n; i++) {
                    Row kept = rows.get(t.name())
                            .get(random.nextInt(rows.get(t.name()).size()));
                    if (random.nextInt(3) == 0 || out.values().stream().allMatch(List::isEmpty) && extra.isEmpty()) {
                        extra.add(Row.copy(kept));
                    } else {
                        Row other = row(t, (Long) kept.getField(0), sizes);
                        extra.add(other.equals(kept) ? Row.copy(kept) : other);
                    }
                }
            }
            out.put(t.name(), extra);
        }
        return out;
    }

    // ---- queries ----

    /** A random query over {@code schema}. */
    Query query(Snowflake schema) {
        EnumSet<Feature> features = EnumSet.noneOf(Feature.class);
        List<Ref> refs = new ArrayList<>();
        Table fact = schema.fact();
        Ref f = new Ref("t0", fact, null, null);
        refs.add(f);
        // The fact's dimensions: each reference column joins with probability 3/5, at least one of them.
        List<Column> references =
                fact.columns().stream().filter(c -> c.references() != null).toList();
        boolean any = false;
        for (int i = 0; i < references.size(); i++) {
            Column c = references.get(i);
            boolean last = i == references.size() - 1;
            if (random.nextInt(5) < 3 || (last && !any)) {
                any = true;
                Ref d = new Ref("t" + refs.size(), schema.table(c.references()), f, c.name());
                refs.add(d);
                for (Column sub : d.table().columns()) {
                    if (sub.references() != null && random.nextInt(5) < 3) {
                        refs.add(new Ref("t" + refs.size(), schema.table(sub.references()), d, sub.name()));
                        features.add(Feature.SECOND_LEVEL);
                    }
                }
            }
        }
        Ref second = null;
        if (schema.shared() != null && random.nextInt(5) < 2) {
            second = new Ref("t" + refs.size(), schema.tables().get(1), null, null);
            refs.add(second);
            features.add(Feature.SECOND_FACT);
        }
        Set<String> tables = new LinkedHashSet<>();
        Map<String, Integer> aliasesOf = new LinkedHashMap<>();
        for (Ref r : refs) {
            tables.add(r.table().name());
            aliasesOf.merge(r.table().name(), 1, Integer::sum);
        }
        if (aliasesOf.values().stream().anyMatch(n -> n > 1)) {
            features.add(Feature.SELF_JOIN);
        }
        List<String> joins = new ArrayList<>();
        for (Ref r : refs) {
            if (r.parent() != null) {
                joins.add(
                        random.nextBoolean()
                                ? r.alias() + ".id = " + r.parent().alias() + "." + r.column()
                                : r.parent().alias() + "." + r.column() + " = " + r.alias() + ".id");
            }
        }
        if (second != null) {
            String column = schema.shared() + "_id";
            joins.add(second.alias() + "." + column + " = " + f.alias() + "." + column);
        }
        // Filters: on dimensions mostly, sometimes on a fact.
        List<String> where = new ArrayList<>();
        for (Ref r : refs) {
            boolean dimension = r.parent() != null;
            if (random.nextInt(dimension ? 2 : 4) == 0) {
                where.add(condition(r, 1));
                if (dimension) {
                    features.add(Feature.DIMENSION_FILTER);
                }
            }
        }
        // GROUP BY: none, or one or two columns (not keys) of any table of the query.
        List<String> group = new ArrayList<>();
        int groups = random.nextInt(5) < 2 ? 0 : 1 + random.nextInt(2);
        for (int g = 0; g < groups; g++) {
            String column = column(refs.get(random.nextInt(refs.size())), null);
            if (!group.contains(column)) {
                group.add(column);
            }
        }
        features.add(group.isEmpty() ? Feature.GLOBAL : Feature.GROUPED);
        Set<String> head = new LinkedHashSet<>(group);
        List<String> select = new ArrayList<>(group);
        int aggregates = 1 + random.nextInt(4);
        for (int a = 0; a < aggregates; a++) {
            select.add(aggregate(refs, features, head) + " AS a" + a);
        }
        StringBuilder sql =
                new StringBuilder("SELECT ").append(String.join(", ", select)).append(" FROM ");
        boolean explicit = random.nextBoolean();
        List<String> conditions = new ArrayList<>();
        for (int i = 0; i < refs.size(); i++) {
            Ref r = refs.get(i);
            String table = "{" + r.table().name() + "} AS " + r.alias();
            if (i == 0) {
                sql.append(table);
            } else if (explicit) {
                String on = r.parent() != null ? joins.get(i - 1) : joins.get(joins.size() - 1);
                sql.append(" JOIN ").append(table).append(" ON ").append(on);
            } else {
                sql.append(", ").append(table);
            }
        }
        if (!explicit) {
            conditions.addAll(joins);
        }
        conditions.addAll(where);
        if (!conditions.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", conditions));
        }
        if (!group.isEmpty()) {
            sql.append(" GROUP BY ").append(String.join(", ", group));
        }
        String absorbed = absorbed(schema, refs, second, head);
        boolean constantTime = QueryClassifier.classify(QueryParser.parse(absorbed))
                .pHierarchical()
                .holds();
        features.add(constantTime ? Feature.CONSTANT_TIME : Feature.NOT_CONSTANT_TIME);
        return new Query(sql.toString(), features, tables, absorbed, constantTime);
    }

    /**
     * The query that absorbing every dimension leaves: the fact's atom, and the second fact's on their
     * shared reference K; each head column (a grouped column or a COUNT(DISTINCT) argument) is in the atom
     * of the fact that absorbs its table, and in both where its table is the shared dimension or hangs
     * from it (both facts reach its columns through K's key).
     */
    private static String absorbed(Snowflake schema, List<Ref> refs, Ref second, Set<String> head) {
        List<String> factVars = new ArrayList<>();
        List<String> secondVars = new ArrayList<>();
        if (second != null) {
            factVars.add("K");
            secondVars.add("K");
        }
        List<String> headVars = new ArrayList<>();
        for (String column : head) {
            String alias = column.substring(0, column.indexOf('.'));
            Ref r = refs.stream()
                    .filter(x -> x.alias().equals(alias))
                    .findFirst()
                    .orElseThrow();
            String v = "V" + headVars.size();
            headVars.add(v);
            if (r == second) {
                secondVars.add(v);
                continue;
            }
            factVars.add(v);
            Ref top = r;
            while (top.parent() != null && top.parent().parent() != null) {
                top = top.parent();
            }
            boolean shared =
                    second != null && top.parent() != null && top.column().equals(schema.shared() + "_id");
            if (shared) {
                secondVars.add(v);
            }
        }
        String body = "sale(" + String.join(",", factVars) + ")";
        if (second != null) {
            body += ", refund(" + String.join(",", secondVars) + ")";
        }
        return "Q(" + String.join(",", headVars) + ") :- " + body;
    }

    /** A column (not a key or reference) of {@code r}'s table, of {@code family} (any where null). */
    private String column(Ref r, Family family) {
        List<String> options = new ArrayList<>();
        for (Column c : r.table().columns()) {
            if (c.family() != Family.ID && (family == null || c.family() == family)) {
                options.add(r.alias() + "." + c.name());
            }
        }
        return options.isEmpty() ? null : options.get(random.nextInt(options.size()));
    }

    /** A condition on {@code r}'s row (no equality with a constant: it would take the column out of the head). */
    private String condition(Ref r, int depth) {
        if (depth > 0 && random.nextInt(4) == 0) {
            return "(" + condition(r, depth - 1) + (random.nextBoolean() ? " OR " : " AND ") + condition(r, depth - 1)
                    + ")";
        }
        String column = column(r, null);
        Family family =
                r.table().column(column.substring(column.indexOf('.') + 1)).family();
        return switch (family) {
            case STRING ->
                switch (random.nextInt(5)) {
                    case 0 -> column + " LIKE '%a%'";
                    case 1 -> column + " NOT LIKE 'B%'";
                    case 2 -> column + " IN ('alpha', 'Beta', 'it''s')";
                    case 3 -> column + " > 'b'";
                    default -> column + " IS NOT NULL";
                };
            case DATE ->
                switch (random.nextInt(3)) {
                    case 0 -> column + " >= DATE '" + EPOCH.plusDays(random.nextInt(20)) + "'";
                    case 1 -> column + " < DATE '" + EPOCH.plusDays(random.nextInt(25)) + "'";
                    default -> column + " BETWEEN DATE '" + EPOCH + "' AND DATE '" + EPOCH.plusDays(20) + "'";
                };
            case NUMBER ->
                switch (random.nextInt(3)) {
                    case 0 -> column + " < " + random.nextInt(5);
                    case 1 -> column + " BETWEEN -1 AND " + random.nextInt(6);
                    default -> column + " <> " + random.nextInt(4);
                };
            case DECIMAL -> column + (random.nextBoolean() ? " > 1.50" : " IS NULL");
            case ID -> throw new IllegalStateException("no condition on keys");
        };
    }

    /** An aggregate over one of {@code refs}; a COUNT(DISTINCT ...)'s argument joins {@code head}. */
    private String aggregate(List<Ref> refs, Set<Feature> features, Set<String> head) {
        Ref r = refs.get(random.nextInt(refs.size()));
        String agg;
        switch (random.nextInt(9)) {
            case 0, 1 -> {
                boolean min = random.nextBoolean();
                String column = column(r, Family.STRING);
                features.add(min ? Feature.MIN_STRING : Feature.MAX_STRING);
                agg = (min ? "MIN(" : "MAX(") + column + ")";
            }
            case 2, 3 -> {
                boolean min = random.nextBoolean();
                features.add(min ? Feature.MIN_DATE : Feature.MAX_DATE);
                agg = (min ? "MIN(" : "MAX(") + column(r, Family.DATE) + ")";
            }
            case 4 -> {
                features.add(Feature.SUM);
                agg = random.nextBoolean() ? "SUM(t0.amount)" : "SUM(" + column(r, Family.NUMBER) + ")";
            }
            case 5 -> {
                features.add(Feature.SUM);
                agg = "SUM(t0.qty)";
            }
            case 6 -> {
                features.add(Feature.COUNT);
                agg = random.nextBoolean() ? "COUNT(*)" : "COUNT(" + column(r, null) + ")";
            }
            default -> {
                features.add(Feature.COUNT_DISTINCT);
                String column = column(r, null);
                head.add(column);
                agg = "COUNT(DISTINCT " + column + ")";
            }
        }
        if (random.nextInt(4) == 0) {
            Ref on = refs.get(random.nextInt(refs.size()));
            agg += " FILTER (WHERE " + condition(on, 0) + ")";
            features.add(Feature.FILTER_CLAUSE);
        }
        return agg;
    }
}
