package io.flinkivm.sql;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.BOOLEAN;
import static org.apache.flink.table.api.DataTypes.DATE;
import static org.apache.flink.table.api.DataTypes.DECIMAL;
import static org.apache.flink.table.api.DataTypes.DOUBLE;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.INT;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.apache.flink.table.api.DataTypes.TIME;
import static org.apache.flink.table.api.DataTypes.TIMESTAMP;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.semiring.Semirings;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.sql.rows.FlinkTables;
import io.flinkivm.sql.translate.SqlTranslation;
import io.flinkivm.sql.translate.TableInput;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.types.DataType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * MIN and MAX of every type Flink SQL orders: seeded random queries over a small star of tables with
 * strings (among them characters beyond U+FFFF, whose order by code point differs from Java's), dates,
 * times, timestamps of milliseconds and of nanoseconds, narrow and wide decimals, booleans, integers and
 * doubles, NULLs among them, side by side with SUM and COUNT, with FILTER clauses (of MIN, MAX, COUNT(*) and
 * SUM, on one table's row) and filters of one row.
 * Each query's final result from {@link FlinkIvmSql#sql} equals Flink SQL's on the same tables, and so
 * does the naive evaluator's over the translation's payloads, on insert-only tables and on changelogs.
 */
class SqlMinMaxITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static final int QUERIES = 24;
    private static final int BATCH = 12;
    private static final long SEED = 20_261_207L;

    static final String[] TABLES = {"product", "orders", "shipment"};
    static final DataType[] TYPES = {
        ROW(
                FIELD("id", BIGINT()),
                FIELD("name", STRING()),
                FIELD("price", DECIMAL(12, 2)),
                FIELD("wide", DECIMAL(30, 2)),
                FIELD("flag", BOOLEAN())),
        ROW(
                FIELD("id", BIGINT()),
                FIELD("product_id", BIGINT()),
                FIELD("placed_on", DATE()),
                FIELD("placed_at", TIMESTAMP(3)),
                FIELD("slot", TIME(0)),
                FIELD("qty", INT())),
        ROW(
                FIELD("id", BIGINT()),
                FIELD("order_id", BIGINT()),
                FIELD("product_id", BIGINT()),
                FIELD("note", STRING()),
                FIELD("sent", TIMESTAMP(9)),
                FIELD("weight", DOUBLE()))
    };

    /** U+FF21 (a fullwidth A) and U+2070E: by code point (UTF-8 bytes) U+FF21 is below, by UTF-16 unit above. */
    static final String FULLWIDTH_A = "\uFF21";

    static final String BEYOND_FFFF = new String(Character.toChars(0x2070E));

    static final String[] STRINGS = {
        "apple", "Apple", "\u00e9clair", FULLWIDTH_A, BEYOND_FFFF, "", "a b", "it's damaged", "late"
    };

    /**
     * Queries every run includes: the first and last of a star (a string, a date, a string), and
     * the extremes of strings of one table, where the order of U+FF21 and U+2070E decides.
     */
    static final List<String> FIXED = List.of(
            "SELECT MIN(p.name) AS first_product, MIN(o.placed_on) AS first_day, MAX(s.note) AS last_note"
                    + " FROM shipment AS s, orders AS o, product AS p"
                    + " WHERE s.note NOT LIKE '%damaged%' AND p.id = s.product_id AND o.id = s.order_id",
            "SELECT MIN(s.note) AS first_note, MAX(s.note) AS last_note, COUNT(*) AS n FROM shipment AS s",
            "SELECT p.flag, MIN(p.name) AS first_name, MAX(p.name) AS last_name FROM product AS p GROUP BY p.flag");

    /** The features the chosen queries must cover. */
    enum Feature {
        STRING,
        DATE,
        TIME,
        TIMESTAMP,
        TIMESTAMP_NANOS,
        DECIMAL,
        WIDE_DECIMAL,
        BOOLEAN,
        NUMBER,
        EXPRESSION,
        WITH_SUM_OR_COUNT,
        FILTER_CLAUSE,
        COUNT_FILTER,
        SUM_FILTER,
        GROUPED,
        GLOBAL,
        JOIN
    }

    record Query(String sql, Set<Feature> features) {}

    @Test
    void randomQueriesAgreeWithFlinkSqlAndTheNaiveEvaluator() throws Exception {
        Random random = new Random(SEED);
        List<List<Row>> rows = new ArrayList<>();
        for (int t = 0; t < TABLES.length; t++) {
            rows.add(rows(random, t, 14));
        }
        rows.get(2)
                .addAll(List.of(
                        Row.of(8L, 1L, 1L, FULLWIDTH_A, null, 1.0), Row.of(9L, 2L, 2L, BEYOND_FFFF, null, 2.0)));
        runAll(random, rows, false);
    }

    @Test
    void randomQueriesOverChangelogsAgreeWithFlinkSqlAndTheNaiveEvaluator() throws Exception {
        Random random = new Random(SEED + 1);
        List<List<Row>> changes = new ArrayList<>();
        for (int t = 0; t < TABLES.length; t++) {
            changes.add(changes(random, t, 24));
        }
        changes.get(2)
                .addAll(List.of(
                        Row.ofKind(RowKind.INSERT, 8L, 1L, 1L, FULLWIDTH_A, null, 1.0),
                        Row.ofKind(RowKind.INSERT, 9L, 2L, 2L, BEYOND_FFFF, null, 2.0)));
        runAll(random, changes, true);
    }

    // ---- data ----

    static List<Row> rows(Random r, int t, int n) {
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Row.of(values(r, t)));
        }
        return out;
    }

    /** Inserts, deletes and updates of live rows, about 3:1:1. */
    static List<Row> changes(Random r, int t, int n) {
        List<Row> out = new ArrayList<>();
        List<Object[]> live = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int op = live.isEmpty() ? 0 : r.nextInt(5);
            if (op <= 2) {
                Object[] values = values(r, t);
                live.add(values);
                out.add(Row.ofKind(RowKind.INSERT, values));
            } else {
                Object[] gone = live.remove(r.nextInt(live.size()));
                if (op == 3) {
                    out.add(Row.ofKind(RowKind.DELETE, gone));
                } else {
                    Object[] values = values(r, t);
                    live.add(values);
                    out.add(Row.ofKind(RowKind.UPDATE_BEFORE, gone));
                    out.add(Row.ofKind(RowKind.UPDATE_AFTER, values));
                }
            }
        }
        return out;
    }

    private static Object[] values(Random r, int t) {
        return switch (t) {
            case 0 ->
                new Object[] {
                    (long) r.nextInt(4),
                    nullable(r, STRINGS[r.nextInt(STRINGS.length)]),
                    nullable(r, BigDecimal.valueOf(r.nextInt(4001) - 2000, 2)),
                    nullable(
                            r,
                            new BigDecimal((r.nextBoolean() ? "-" : "") + "1234567890123456789012" + r.nextInt(10)
                                    + ".0" + r.nextInt(10))),
                    nullable(r, r.nextBoolean())
                };
            case 1 ->
                new Object[] {
                    (long) r.nextInt(6),
                    nullable(r, (long) r.nextInt(4)),
                    nullable(r, LocalDate.of(2024, 1, 1).plusDays(r.nextInt(40) - 20)),
                    nullable(
                            r,
                            LocalDateTime.of(2024, 1, 1, 0, 0)
                                    .plusSeconds(r.nextInt(200_000) - 100_000)
                                    .plusNanos(r.nextInt(1000) * 1_000_000L)),
                    nullable(r, LocalTime.of(r.nextInt(24), r.nextInt(60), r.nextInt(60))),
                    nullable(r, r.nextInt(9) - 3)
                };
            default ->
                new Object[] {
                    (long) r.nextInt(8),
                    nullable(r, (long) r.nextInt(6)),
                    nullable(r, (long) r.nextInt(4)),
                    nullable(r, STRINGS[r.nextInt(STRINGS.length)]),
                    nullable(r, LocalDateTime.of(1969, 12, 31, 23, 59, 59).plusNanos(r.nextInt(5_000) * 999_999L)),
                    nullable(r, (r.nextInt(41) - 20) / 4.0)
                };
        };
    }

    private static Object nullable(Random r, Object v) {
        return r.nextInt(8) == 0 ? null : v;
    }

    // ---- queries ----

    /** An extremum per ordered column of each table, with the feature it covers. */
    private static final String[][] EXTREMA = {
        {
            "p.name",
            "STRING",
            "p.price",
            "DECIMAL",
            "p.wide",
            "WIDE_DECIMAL",
            "p.flag",
            "BOOLEAN",
            "p.price * 2 - 1",
            "EXPRESSION"
        },
        {
            "o.placed_on",
            "DATE",
            "o.placed_at",
            "TIMESTAMP",
            "o.slot",
            "TIME",
            "o.qty",
            "NUMBER",
            "UPPER(CAST(o.qty AS STRING))",
            "EXPRESSION"
        },
        {
            "s.note",
            "STRING",
            "s.sent",
            "TIMESTAMP_NANOS",
            "s.weight",
            "NUMBER",
            "CASE WHEN s.weight > 0 THEN s.note END",
            "EXPRESSION"
        }
    };

    private static final String[] ALIASES = {"p", "o", "s"};
    private static final String[][] GROUPS = {
        {"p.flag", "p.name", "p.id"}, {"o.qty", "o.placed_on", "o.slot"}, {"s.note", "s.order_id"}
    };
    private static final String[][] FILTERS = {
        {"p.name LIKE '%e%'", "p.flag", "p.price > 0"},
        {"o.placed_on >= DATE '2024-01-01'", "o.slot < TIME '12:00:00'", "o.placed_at IS NOT NULL"},
        {"s.note NOT LIKE '%damaged%'", "s.weight <= 2", "s.sent < TIMESTAMP '1970-01-01 00:00:01'"}
    };

    static Query generate(Random r) {
        EnumSet<Feature> features = EnumSet.noneOf(Feature.class);
        // The star: orders with its product and its shipments, or a part of it.
        int shape = r.nextInt(6);
        List<Integer> tables = switch (shape) {
            case 0 -> List.of(0);
            case 1 -> List.of(1);
            case 2 -> List.of(2);
            case 3 -> List.of(0, 1);
            case 4 -> List.of(1, 2);
            default -> List.of(0, 1, 2);
        };
        if (tables.size() > 1) {
            features.add(Feature.JOIN);
        }
        List<String> select = new ArrayList<>();
        List<String> group = new ArrayList<>();
        if (r.nextInt(3) > 0) {
            int t = tables.get(r.nextInt(tables.size()));
            group.add(GROUPS[t][r.nextInt(GROUPS[t].length)]);
            features.add(Feature.GROUPED);
        } else {
            features.add(Feature.GLOBAL);
        }
        select.addAll(group);
        int aggregates = 1 + r.nextInt(4);
        for (int a = 0; a < aggregates; a++) {
            int t = tables.get(r.nextInt(tables.size()));
            int pick = r.nextInt(8);
            String agg;
            if (pick == 0) {
                agg = r.nextBoolean()
                        ? "COUNT(*)"
                        : "COUNT(" + ALIASES[t] + "." + (t == 0 ? "name" : t == 1 ? "slot" : "note") + ")";
                features.add(Feature.WITH_SUM_OR_COUNT);
                if (r.nextInt(3) == 0) {
                    // A filter on any table of the query: COUNT(*) FILTER (WHERE price < 10000) of Nexmark q15.
                    int f = tables.get(r.nextInt(tables.size()));
                    agg += " FILTER (WHERE " + FILTERS[f][r.nextInt(FILTERS[f].length)] + ")";
                    features.add(Feature.COUNT_FILTER);
                }
            } else if (pick == 1 && tables.contains(1)) {
                agg = "SUM(o.qty)";
                features.add(Feature.WITH_SUM_OR_COUNT);
                if (r.nextInt(3) == 0) {
                    int f = tables.get(r.nextInt(tables.size()));
                    agg += " FILTER (WHERE " + FILTERS[f][r.nextInt(FILTERS[f].length)] + ")";
                    features.add(Feature.SUM_FILTER);
                }
            } else {
                int e = 2 * r.nextInt(EXTREMA[t].length / 2);
                agg = (r.nextBoolean() ? "MIN(" : "MAX(") + EXTREMA[t][e] + ")";
                features.add(Feature.valueOf(EXTREMA[t][e + 1]));
                if (r.nextInt(6) == 0) {
                    agg += " FILTER (WHERE " + FILTERS[t][r.nextInt(FILTERS[t].length)] + ")";
                    features.add(Feature.FILTER_CLAUSE);
                }
            }
            select.add(agg + " AS a" + a);
        }
        StringBuilder sql =
                new StringBuilder("SELECT ").append(String.join(", ", select)).append(" FROM ");
        List<String> where = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            int t = tables.get(i);
            sql.append(i == 0 ? "" : ", ").append(TABLES[t]).append(" AS ").append(ALIASES[t]);
            if (r.nextInt(3) == 0) {
                where.add(FILTERS[t][r.nextInt(FILTERS[t].length)]);
            }
        }
        if (tables.contains(0) && tables.contains(1)) {
            where.add("o.product_id = p.id");
        }
        if (tables.contains(1) && tables.contains(2)) {
            where.add("s.order_id = o.id");
        }
        if (tables.contains(0) && tables.contains(2) && r.nextBoolean()) {
            where.add("s.product_id = p.id");
        }
        if (!where.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", where));
        }
        if (!group.isEmpty()) {
            sql.append(" GROUP BY ").append(String.join(", ", group));
        }
        return new Query(sql.toString(), features);
    }

    private static void runAll(Random random, List<List<Row>> rows, boolean changelog) throws Exception {
        List<Query> chosen = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (String sql : FIXED) {
            chosen.add(new Query(sql, EnumSet.of(Feature.STRING)));
            seen.add(sql);
        }
        EnumSet<Feature> covered = EnumSet.noneOf(Feature.class);
        for (int attempt = 0; attempt < 2000 && chosen.size() < QUERIES + FIXED.size(); attempt++) {
            Query q = generate(random);
            if ((!covered.containsAll(q.features()) || attempt > 300) && seen.add(q.sql())) {
                covered.addAll(q.features());
                chosen.add(q);
            }
        }
        assertThat(covered).containsAll(EnumSet.allOf(Feature.class));
        for (int from = 0; from < chosen.size(); from += BATCH) {
            run(chosen.subList(from, Math.min(chosen.size(), from + BATCH)), rows, changelog);
        }
    }

    private static void run(List<Query> queries, List<List<Row>> rows, boolean changelog) throws Exception {
        StreamExecutionEnvironment env = SqlTestTables.environment(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        for (int t = 0; t < TABLES.length; t++) {
            if (changelog) {
                SqlTestTables.registerChangelog(tEnv, env, TABLES[t], TYPES[t], rows.get(t));
            } else {
                SqlTestTables.register(tEnv, env, TABLES[t], TYPES[t], rows.get(t));
            }
        }
        List<CloseableIterator<Row>> ivm = new ArrayList<>();
        List<CloseableIterator<Row>> flink = new ArrayList<>();
        List<CloseableIterator<DeadLetter>> deadLetters = new ArrayList<>();
        List<List<List<Object>>> naive = new ArrayList<>();
        for (Query q : queries) {
            SqlView view = FlinkIvmSql.sql(tEnv, q.sql(), IvmOptions.defaults().withSnapshotEvery(10));
            ivm.add(tEnv.toChangelogStream(view.table()).collectAsync());
            flink.add(tEnv.toChangelogStream(tEnv.sqlQuery(q.sql())).collectAsync());
            deadLetters.add(view.deadLetters().collectAsync());
            SqlTranslation translation = SqlTranslation.of(
                    q.sql(), path -> path.size() == 1 ? FlinkTables.schema(path.get(0), tEnv.from(path.get(0))) : null);
            naive.add(naive(translation, rows, changelog));
        }
        env.execute("MIN and MAX: " + queries.size() + " queries");
        for (int i = 0; i < queries.size(); i++) {
            Query q = queries.get(i);
            List<List<Object>> expected = SqlTestTables.changelogResult(flink.get(i));
            if (q.sql().equals(FIXED.get(1))) {
                // Flink SQL orders strings by code point (their UTF-8 bytes): U+2070E above U+FF21, which Java's
                // String.compareTo (UTF-16 units) has the other way round.
                assertThat(expected)
                        .singleElement()
                        .satisfies(row -> assertThat(row.get(1)).isEqualTo(BEYOND_FFFF));
            }
            assertThat(SqlTestTables.changelogResult(ivm.get(i)))
                    .as("flink-ivm: %s %s", q.sql(), q.features())
                    .containsExactlyInAnyOrderElementsOf(expected);
            assertThat(naive.get(i))
                    .as("the naive evaluator: %s %s", q.sql(), q.features())
                    .containsExactlyInAnyOrderElementsOf(expected);
            assertThat(deadLetters.get(i)).as("dead letters of %s", q.sql()).isExhausted();
            deadLetters.get(i).close();
            flink.get(i).close();
            ivm.get(i).close();
        }
    }

    /**
     * The result by the naive evaluator over the payloads the translation gives each row (a delete or the
     * old half of an update: its payload's inverse in the ring), as rows of normalized values.
     */
    static List<List<Object>> naive(SqlTranslation t, List<List<Row>> rows, boolean changelog) throws Exception {
        Semiring<?> k = changelog ? Semirings.ringFor(t.semiring()) : t.semiring();
        return evaluate(t, k, rows);
    }

    @SuppressWarnings("unchecked") // a retraction's semiring is the ring
    private static <T> List<List<Object>> evaluate(SqlTranslation t, Semiring<T> k, List<List<Row>> rows)
            throws Exception {
        KDatabase<T> db = new KDatabase<>(k);
        for (int i = 0; i < TABLES.length; i++) {
            TableInput table = t.table(TABLES[i]);
            if (table == null) {
                continue;
            }
            List<String> columns = table.inputColumns();
            List<String> names = DataType.getFieldNames(TYPES[i]);
            for (Row row : rows.get(i)) {
                Object[] values = new Object[columns.size()];
                for (int c = 0; c < values.length; c++) {
                    values[c] = row.getField(names.indexOf(columns.get(c)));
                }
                boolean retract = row.getKind() == RowKind.DELETE || row.getKind() == RowKind.UPDATE_BEFORE;
                for (TableInput.Insert insert : table.inserts(table.fromValues(values))) {
                    T payload = SqlTranslation.payloadIn(k, insert.payload());
                    db.insert(insert.relation(), insert.tuple(), retract ? ((Ring<T>) k).negate(payload) : payload);
                }
            }
        }
        List<List<Object>> out = new ArrayList<>();
        for (Map.Entry<Tuple, T> e :
                NaiveEvaluator.evaluate(t.query(), k, db.relations()).entrySet()) {
            if (k.isZero(e.getValue())) {
                continue;
            }
            List<Object> values = new ArrayList<>();
            for (Object v : t.outputRow(e.getKey(), e.getValue())) {
                values.add(SqlTestTables.normalize(v));
            }
            out.add(values);
        }
        return out;
    }
}
