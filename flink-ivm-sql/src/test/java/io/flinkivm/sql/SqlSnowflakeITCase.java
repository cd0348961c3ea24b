package io.flinkivm.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.sql.SnowflakeSchemaGenerator.Feature;
import io.flinkivm.sql.SnowflakeSchemaGenerator.Query;
import io.flinkivm.sql.SnowflakeSchemaGenerator.Role;
import io.flinkivm.sql.SnowflakeSchemaGenerator.Snowflake;
import io.flinkivm.sql.SnowflakeSchemaGenerator.Table;
import io.flinkivm.sql.translate.DistinctGroupMap;
import io.flinkivm.sql.translate.SqlTable;
import io.flinkivm.sql.translate.SqlTranslation;
import io.flinkivm.sql.translate.TableInput;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Star and snowflake queries as analysts write them, over generated schemas ({@link
 * SnowflakeSchemaGenerator}: a fact, dimensions with dimensions of their own, a dimension joined twice under
 * two aliases, a second fact sharing a dimension; every table with {@code PRIMARY KEY (id) NOT ENFORCED}
 * in the catalog), random queries with MIN and MAX of strings and dates, SUM, COUNT, COUNT(DISTINCT ...),
 * FILTER clauses and filters on dimensions. Most of each dimension's rows come after the facts that look
 * them up. Each query runs through {@link FlinkIvmSql#sql} and through Flink SQL on the same tables, and
 * the final results must be equal, and equal to the naive evaluator's over the translation. Its plan must
 * be O(1) exactly where the query that absorbing its dimensions leaves is p-hierarchical ({@link
 * Query#constantTime()}, computed from the schema's shape): explain's plan line says which.
 *
 * <p>With second rows for the keys of key tables (identical or not), each query whose plan absorbs such a
 * table has one dead letter per such row, naming the table's key, and its result is the one over the
 * tables without them; where the plan relies on no key of the table, the rows count as Flink SQL counts
 * them in a table without a key.
 *
 * <p>The seed is {@value #SEED}, or the system property {@value #SEED_PROPERTY}; every failure names it.
 */
class SqlSnowflakeITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .setConfiguration(network())
            .build());

    static final long SEED = 20_261_208L;
    static final String SEED_PROPERTY = "flinkivm.snowflake.seed";
    private static final int SCHEMAS = 4;
    private static final int QUERIES_PER_SCHEMA = 7;
    private static final int VIOLATION_SCHEMAS = 2;
    private static final int VIOLATION_QUERIES = 5;
    private static final int FACTS = 90;

    /** Small network buffers: a job of several queries with their key stages has many exchanges. */
    private static Configuration network() {
        Configuration c = new Configuration();
        c.setString("taskmanager.memory.segment-size", "4kb");
        return c;
    }

    /** What the plan of a query does with the rows that break a table's key. */
    enum Treatment {
        /** Every relation of the table is absorbed: any second row with a key value is a dead letter. */
        REJECTED,
        /** The plan relies on no key of the table: every row counts. */
        COUNTED,
        /** Otherwise (a key looked up but not absorbed, or trusted): not what this test checks. */
        OTHER
    }

    @Test
    void starAndSnowflakeQueriesAgreeWithFlinkSqlAndTheNaiveEvaluator() throws Exception {
        seeded(0, SqlSnowflakeITCase::randomQueries);
    }

    @Test
    void secondRowsWithTheKeyOfAnAbsorbedTableAreOneDeadLetterEachAndChangeNothing() throws Exception {
        seeded(1, SqlSnowflakeITCase::keyViolations);
    }

    /** A test's body over its seed. */
    private interface SeededRun {
        void run(long seed) throws Exception;
    }

    /**
     * Runs {@code body} with the seed {@value #SEED} (or the system property {@value #SEED_PROPERTY}) plus
     * {@code offset}; any failure names the seed and how to rerun it.
     */
    private static void seeded(long offset, SeededRun body) throws Exception {
        long base = Long.getLong(SEED_PROPERTY, SEED);
        try {
            body.run(base + offset);
        } catch (Exception | AssertionError e) {
            throw new AssertionError(
                    "failed with seed " + (base + offset) + " (rerun with -D" + SEED_PROPERTY + "=" + base + ")", e);
        }
    }

    private static void randomQueries(long seed) throws Exception {
        Random random = new Random(seed);
        EnumSet<Feature> covered = EnumSet.noneOf(Feature.class);
        Counts counts = new Counts();
        for (int s = 0; s < SCHEMAS; s++) {
            SnowflakeSchemaGenerator generator = new SnowflakeSchemaGenerator(random);
            Snowflake schema = generator.schema();
            Map<String, List<Row>> rows = generator.rows(schema, FACTS);
            List<Query> chosen = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            // First queries that add a feature not yet covered, then any new one.
            for (int attempt = 0; attempt < 500 && chosen.size() < QUERIES_PER_SCHEMA; attempt++) {
                Query q = generator.query(schema);
                if ((!covered.containsAll(q.features()) || attempt > 100) && seen.add(q.template())) {
                    covered.addAll(q.features());
                    chosen.add(q);
                }
            }
            run(schema, rows, Map.of(), chosen, "seed " + seed + ", schema " + s + ": " + schema, counts);
        }
        System.out.printf(
                "SqlSnowflakeITCase (seed %d): %d of %d queries on an O(1) plan, %d of them with key tables absorbed%n",
                seed, counts.constant, counts.queries, counts.absorbing);
        assertThat(covered).as("features covered, seed %d", seed).containsAll(EnumSet.allOf(Feature.class));
        assertThat(counts.absorbing)
                .as("queries with key tables absorbed, seed %d", seed)
                .isPositive();
    }

    private static void keyViolations(long seed) throws Exception {
        Random random = new Random(seed);
        Counts counts = new Counts();
        for (int s = 0; s < VIOLATION_SCHEMAS; s++) {
            SnowflakeSchemaGenerator generator = new SnowflakeSchemaGenerator(random);
            Snowflake schema = generator.schema();
            Map<String, List<Row>> rows = generator.rows(schema, FACTS);
            Map<String, List<Row>> violations = generator.violations(schema, rows);
            Map<String, SqlTable> tables = schema.sqlTables();
            // Queries whose plans absorb the tables with violating rows, or rely on none of their keys: first
            // those that absorb a table with an identical second row or one with a different second row, while
            // that kind is not yet covered, then those that absorb such a table.
            List<Query> chosen = new ArrayList<>();
            Set<String> seen = new HashSet<>();
            Set<Boolean> kinds = new HashSet<>();
            for (int attempt = 0; attempt < 500 && chosen.size() < VIOLATION_QUERIES; attempt++) {
                Query q = generator.query(schema);
                SqlTranslation t = SqlTranslation.of(q.sql(), tables);
                Map<String, Treatment> treatments = treatments(t, Planner.plan(t.query(), t.semiring()), q, violations);
                Set<Boolean> identical = new HashSet<>();
                treatments.forEach((table, treatment) -> {
                    if (treatment == Treatment.REJECTED) {
                        violations
                                .get(table)
                                .forEach(v -> identical.add(rows.get(table).contains(v)));
                    }
                });
                boolean wanted = kinds.size() < 2 ? !kinds.containsAll(identical) : !identical.isEmpty();
                if (!treatments.containsValue(Treatment.OTHER) && (wanted || attempt > 100) && seen.add(q.template())) {
                    kinds.addAll(identical);
                    chosen.add(q);
                }
            }
            String where =
                    "seed " + seed + ", schema " + s + " with rows that break keys " + violations + ": " + schema;
            run(schema, rows, violations, chosen, where, counts);
        }
        System.out.printf(
                "SqlSnowflakeITCase (seed %d): %d dead letters for rows that break keys of absorbed tables, %d of"
                        + " them for identical rows%n",
                seed, counts.deadLetters, counts.identicalDeadLetters);
        assertThat(counts.deadLetters).as("dead letters, seed %d", seed).isPositive();
        assertThat(counts.identicalDeadLetters)
                .as("dead letters of identical second rows, seed %d", seed)
                .isPositive()
                .isLessThan(counts.deadLetters);
    }

    /** What the runs saw. */
    static final class Counts {
        int queries;
        int constant;
        int absorbing;
        int deadLetters;
        int identicalDeadLetters;
    }

    /** For each table of {@code q} that has violating rows, what {@code plan} does with them. */
    static Map<String, Treatment> treatments(
            SqlTranslation t, MaintenancePlan plan, Query q, Map<String, List<Row>> violations) {
        Map<String, Treatment> out = new LinkedHashMap<>();
        for (String table : q.tables()) {
            if (violations.getOrDefault(table, List.of()).isEmpty()) {
                continue;
            }
            List<String> relations = t.table(table).relations();
            Treatment treatment;
            if (!(plan instanceof KeyedPlan keyed)) {
                treatment = Treatment.COUNTED;
            } else if (relations.stream().allMatch(keyed::absorbs)) {
                treatment = Treatment.REJECTED;
            } else {
                boolean relied = false;
                for (ConjunctiveQuery.Key k : keyed.keys()) {
                    relied |= relations.contains(k.relation());
                }
                treatment = relied ? Treatment.OTHER : Treatment.COUNTED;
            }
            out.put(table, treatment);
        }
        return out;
    }

    /**
     * Runs the queries in one job over the schema's tables (with the violating rows) through flink-ivm,
     * and through Flink SQL and the naive evaluator over the tables a query's plan should see: without the
     * rows its plan rejects.
     */
    private static void run(
            Snowflake schema,
            Map<String, List<Row>> rows,
            Map<String, List<Row>> violations,
            List<Query> queries,
            String where,
            Counts counts)
            throws Exception {
        StreamExecutionEnvironment env = SqlTestTables.environment(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        Random split = new Random(rows.hashCode());
        Map<String, List<Row>> every = new LinkedHashMap<>();
        for (Table t : schema.tables()) {
            List<Row> violating = violations.getOrDefault(t.name(), List.of());
            register(tEnv, env, t, rows.get(t.name()), violating, split);
            List<Row> all = new ArrayList<>(rows.get(t.name()));
            all.addAll(violating);
            every.put(t.name(), all);
            if (!violating.isEmpty()) {
                // Flink SQL reads the table without the violating rows, or with them and without the key (it
                // would read a second row with a declared key as a replacement).
                ExternalTypeInfo<Row> type = ExternalTypeInfo.of(t.rowType());
                tEnv.createTemporaryView(
                        "valid_" + t.name(), tEnv.fromDataStream(env.fromData(rows.get(t.name()), type), t.schema()));
                tEnv.createTemporaryView("all_" + t.name(), tEnv.fromDataStream(env.fromData(all, type)));
            }
        }
        List<CloseableIterator<Row>> ivm = new ArrayList<>();
        List<CloseableIterator<Row>> flink = new ArrayList<>();
        List<CloseableIterator<DeadLetter>> dead = new ArrayList<>();
        List<List<List<Object>>> naive = new ArrayList<>();
        List<Map<String, Treatment>> treatments = new ArrayList<>();
        List<SqlTranslation> translations = new ArrayList<>();
        for (Query q : queries) {
            SqlView view = FlinkIvmSql.sql(tEnv, q.sql(), IvmOptions.defaults().withSnapshotEvery(25));
            String explain = view.explain();
            String plan = line(explain, "Plan: ");
            String what = where + "\n" + q.sql() + "\nabsorbed: " + q.absorbed() + "\n" + explain;
            if (q.constantTime()) {
                assertThat(plan).as(what).matches("Plan: [pq]-hierarchical .*");
                assertThat(explain).as(what).contains("Guarantee: amortized O(1) per insert");
            } else {
                assertThat(plan).as(what).startsWith("Plan: fallback");
            }
            counts.queries++;
            counts.constant += q.constantTime() ? 1 : 0;
            counts.absorbing += explain.contains(" folded into ") ? 1 : 0;
            Map<String, Treatment> treatment =
                    treatments(view.translation(), view.job().plan(), q, violations);
            assertThat(treatment).as(what).doesNotContainValue(Treatment.OTHER);
            treatments.add(treatment);
            ivm.add(tEnv.toChangelogStream(view.table()).collectAsync());
            dead.add(view.deadLetters().collectAsync());
            flink.add(tEnv.toChangelogStream(tEnv.sqlQuery(q.sql(name -> treatment.get(name) == null
                            ? name
                            : (treatment.get(name) == Treatment.COUNTED ? "all_" : "valid_") + name)))
                    .collectAsync());
            Map<String, List<Row>> seen = new LinkedHashMap<>();
            for (Table t : schema.tables()) {
                seen.put(
                        t.name(),
                        treatment.get(t.name()) == Treatment.COUNTED ? every.get(t.name()) : rows.get(t.name()));
            }
            translations.add(view.translation());
            naive.add(naive(view.translation(), schema, seen));
        }
        env.execute("snowflake: " + queries.size() + " queries");
        for (int i = 0; i < queries.size(); i++) {
            Query q = queries.get(i);
            String what = where + "\n" + q.sql() + " " + q.features();
            List<List<Object>> expected = SqlTestTables.changelogResult(flink.get(i));
            assertThat(SqlTestTables.changelogResult(ivm.get(i)))
                    .as("flink-ivm, %s", what)
                    .containsExactlyInAnyOrderElementsOf(expected);
            assertThat(naive.get(i)).as("the naive evaluator, %s", what).containsExactlyInAnyOrderElementsOf(expected);
            // One dead letter per row that breaks the key of an absorbed table, naming the key, also where
            // the table is joined under two aliases with different filters (two relations, each with its own
            // key stage: one of them reports the row).
            SqlTranslation t = translations.get(i);
            Map<String, Integer> expectedLetters = new LinkedHashMap<>();
            treatments.get(i).forEach((table, treatment) -> {
                if (treatment == Treatment.REJECTED) {
                    List<Row> violating = violations.get(table);
                    expectedLetters.put(table, violating.size());
                    counts.identicalDeadLetters += (int)
                            violating.stream().filter(rows.get(table)::contains).count();
                }
            });
            Map<String, Integer> letters = new LinkedHashMap<>();
            while (dead.get(i).hasNext()) {
                String reason = dead.get(i).next().reason();
                String relation = reason.substring(0, Math.max(0, reason.indexOf('(')));
                assertThat(reason)
                        .as("dead letter, %s", what)
                        .containsPattern(
                                "^" + relation + "\\(.*\\) breaks KEY " + relation + "\\([a-z0-9_]+\\) \\(column 0\\): "
                                        + relation + "\\(.*\\) is stored under the same key value")
                        .contains("is absorbed into the rows that look it up");
                letters.merge(tableOf(t, schema, relation), 1, Integer::sum);
                counts.deadLetters++;
            }
            assertThat(letters).as("dead letters per table, %s", what).isEqualTo(expectedLetters);
            ivm.get(i).close();
            flink.get(i).close();
            dead.get(i).close();
        }
    }

    /** The table whose rows {@code relation} takes. */
    private static String tableOf(SqlTranslation t, Snowflake schema, String relation) {
        for (Table table : schema.tables()) {
            TableInput input = t.table(table.name());
            if (input != null && input.relations().contains(relation)) {
                return table.name();
            }
        }
        throw new AssertionError("a dead letter names " + relation + ", a relation of no table of " + t.sql());
    }

    /**
     * Registers table {@code t} with its primary key: a fact's rows at once; a key table's rows about a
     * third at once (among them every row whose key a violating row repeats), the rest, then the violating
     * rows, after a pause (in order, from one subtask), so that most facts come before their key rows.
     */
    private static void register(
            StreamTableEnvironment tEnv,
            StreamExecutionEnvironment env,
            Table t,
            List<Row> rows,
            List<Row> violating,
            Random split) {
        ExternalTypeInfo<Row> type = ExternalTypeInfo.of(t.rowType());
        DataStream<Row> stream;
        if (t.role() == Role.FACT || t.role() == Role.SECOND_FACT) {
            stream = env.fromData(rows, type);
        } else {
            Set<Object> repeated = new HashSet<>();
            violating.forEach(r -> repeated.add(r.getField(0)));
            List<Row> early = new ArrayList<>();
            List<Row> late = new ArrayList<>();
            for (Row r : rows) {
                (repeated.contains(r.getField(0)) || split.nextInt(3) == 0 ? early : late).add(r);
            }
            late.addAll(violating);
            DataStream<Row> delayed = late.isEmpty()
                    ? null
                    : env.fromData(late, type)
                            .map(new SqlKeysITCase.Delay())
                            .setParallelism(1)
                            .returns(type);
            DataStream<Row> first = early.isEmpty() ? null : env.fromData(early, type);
            stream = first == null ? delayed : delayed == null ? first : first.union(delayed);
        }
        tEnv.createTemporaryView(t.name(), tEnv.fromDataStream(stream, t.schema()));
    }

    private static String line(String text, String prefix) {
        for (String l : text.split("\n")) {
            if (l.startsWith(prefix)) {
                return l;
            }
        }
        return "(no line " + prefix + ")";
    }

    /**
     * The naive evaluator's result over the translation's payloads of {@code rows} (folded into groups
     * where the query has COUNT(DISTINCT ...)), as rows of normalized values.
     */
    static List<List<Object>> naive(SqlTranslation t, Snowflake schema, Map<String, List<Row>> rows) throws Exception {
        return evaluate(t, t.semiring(), schema, rows);
    }

    private static <T> List<List<Object>> evaluate(
            SqlTranslation t, Semiring<T> k, Snowflake schema, Map<String, List<Row>> rows) throws Exception {
        KDatabase<T> db = new KDatabase<>(k);
        for (Table table : schema.tables()) {
            TableInput input = t.table(table.name());
            if (input == null) {
                continue;
            }
            List<String> columns = input.inputColumns();
            List<String> names = table.columnNames();
            for (Row row : rows.get(table.name())) {
                Object[] values = new Object[columns.size()];
                for (int c = 0; c < values.length; c++) {
                    values[c] = row.getField(names.indexOf(columns.get(c)));
                }
                for (TableInput.Insert insert : input.inserts(input.fromValues(values))) {
                    db.insert(insert.relation(), insert.tuple(), SqlTranslation.payloadIn(k, insert.payload()));
                }
            }
        }
        Map<Tuple, T> result = NaiveEvaluator.evaluate(t.query(), k, db.relations());
        List<List<Object>> out = new ArrayList<>();
        if (t.distinctGroups() != null) {
            DistinctGroupMap groups = new DistinctGroupMap(t, k);
            result.forEach((tuple, payload) -> {
                if (!k.isZero(payload)) {
                    groups.change(tuple, null, payload);
                }
            });
            groups.groups().forEach((group, g) -> out.add(normalized(t.outputRow(group, g))));
        } else {
            result.forEach((tuple, payload) -> {
                if (!k.isZero(payload)) {
                    out.add(normalized(t.outputRow(tuple, payload)));
                }
            });
        }
        return out;
    }

    private static List<Object> normalized(Object[] row) {
        List<Object> values = new ArrayList<>();
        for (Object v : row) {
            values.add(SqlTestTables.normalize(v));
        }
        return values;
    }
}
