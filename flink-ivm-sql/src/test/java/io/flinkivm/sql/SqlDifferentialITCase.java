package io.flinkivm.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.analysis.QueryClassifier;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.sql.rows.FlinkTables;
import io.flinkivm.sql.translate.SqlTranslation;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Random SQL queries ({@link SqlQueryGenerator}: filters of every shape with NULLs, several aggregates
 * with AVG, bag semantics, DISTINCT, self-joins, constants, cross products, p-hierarchical and not),
 * each run through {@link FlinkIvmSql#sql} and through Flink SQL on the same tables, in one job per batch:
 * the final results must be equal. The test checks that each feature occurs.
 */
class SqlDifferentialITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static final int QUERIES = 28;
    private static final int BATCH = 14;
    private static final long SEED = 20_261_205L;

    @Test
    void randomQueriesAgreeWithFlinkSql() throws Exception {
        Random random = new Random(SEED);
        SqlQueryGenerator generator = new SqlQueryGenerator(random);
        List<List<Row>> rows = new ArrayList<>();
        for (int t = 0; t < SqlQueryGenerator.TABLES.length; t++) {
            rows.add(generator.rows(t, 30));
        }
        runAll(generator, rows, false);
    }

    /**
     * The same over tables whose changelogs delete and update rows ({@link SqlQueryGenerator#changes}),
     * read through {@code fromChangelogStream}: flink-ivm plans over the aggregates' ring.
     */
    @Test
    void randomQueriesOverChangelogsAgreeWithFlinkSql() throws Exception {
        Random random = new Random(SEED + 1);
        SqlQueryGenerator generator = new SqlQueryGenerator(random);
        List<List<Row>> changes = new ArrayList<>();
        for (int t = 0; t < SqlQueryGenerator.TABLES.length; t++) {
            changes.add(generator.changes(t, 40));
        }
        runAll(generator, changes, true);
    }

    private static void runAll(SqlQueryGenerator generator, List<List<Row>> rows, boolean changelog) throws Exception {
        List<SqlQueryGenerator.Generated> chosen = choose(generator, rows, changelog);
        assertThat(chosen).hasSize(QUERIES);
        for (int from = 0; from < chosen.size(); from += BATCH) {
            run(chosen.subList(from, Math.min(chosen.size(), from + BATCH)), rows, changelog);
        }
    }

    private static void run(List<SqlQueryGenerator.Generated> queries, List<List<Row>> rows, boolean changelog)
            throws Exception {
        StreamExecutionEnvironment env = SqlTestTables.environment(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        register(tEnv, env, rows, changelog);
        List<CloseableIterator<Row>> ivm = new ArrayList<>();
        List<CloseableIterator<Row>> flink = new ArrayList<>();
        List<CloseableIterator<DeadLetter>> deadLetters = new ArrayList<>();
        for (SqlQueryGenerator.Generated g : queries) {
            SqlView view = FlinkIvmSql.sql(tEnv, g.sql(), IvmOptions.defaults().withSnapshotEvery(20));
            assertThat(view.job().plan().inputs().isInsertOnly()).isEqualTo(!changelog);
            ivm.add(tEnv.toChangelogStream(view.table()).collectAsync());
            flink.add(tEnv.toChangelogStream(tEnv.sqlQuery(g.sql())).collectAsync());
            deadLetters.add(view.deadLetters().collectAsync());
        }
        env.execute("SQL differential: " + queries.size() + " queries");
        for (int i = 0; i < queries.size(); i++) {
            SqlQueryGenerator.Generated g = queries.get(i);
            List<List<Object>> expected = SqlTestTables.changelogResult(flink.get(i));
            List<List<Object>> actual = SqlTestTables.changelogResult(ivm.get(i));
            assertThat(actual).as("%s %s", g.sql(), g.features()).containsExactlyInAnyOrderElementsOf(expected);
            // Valid input: no row is rejected (a delete that overtook its insert would be).
            assertThat(deadLetters.get(i)).as("dead letters of %s", g.sql()).isExhausted();
            deadLetters.get(i).close();
            flink.get(i).close();
            ivm.get(i).close();
        }
    }

    /** Queries from the seeded generator: first those that add a feature not yet covered, then any, up to {@link #QUERIES}. */
    private static List<SqlQueryGenerator.Generated> choose(
            SqlQueryGenerator generator, List<List<Row>> rows, boolean changelog) {
        StreamExecutionEnvironment env = SqlTestTables.environment(1);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        register(tEnv, env, rows, changelog);
        List<SqlQueryGenerator.Generated> chosen = new ArrayList<>();
        Set<String> queries = new HashSet<>();
        EnumSet<SqlQueryGenerator.Feature> covered = EnumSet.noneOf(SqlQueryGenerator.Feature.class);
        for (int attempt = 0; attempt < 3000 && chosen.size() < QUERIES; attempt++) {
            SqlQueryGenerator.Generated g = generator.generate();
            SqlTranslation t;
            try {
                t = SqlTranslation.of(
                        g.sql(),
                        path -> path.size() == 1 ? FlinkTables.schema(path.get(0), tEnv.from(path.get(0))) : null);
            } catch (io.flinkivm.core.plan.UnsupportedPlanException e) {
                assertThat(e).hasMessageContaining("never true"); // contradictory constants are refused, nothing else
                continue;
            }
            boolean pHierarchical =
                    QueryClassifier.classify(t.query()).pHierarchical().holds();
            EnumSet<SqlQueryGenerator.Feature> features = EnumSet.copyOf(g.features());
            features.add(
                    pHierarchical
                            ? SqlQueryGenerator.Feature.P_HIERARCHICAL
                            : SqlQueryGenerator.Feature.NOT_P_HIERARCHICAL);
            boolean adds = !covered.containsAll(features);
            if ((adds || attempt > 400) && queries.add(g.sql())) {
                covered.addAll(features);
                chosen.add(new SqlQueryGenerator.Generated(g.sql(), features));
            }
        }
        assertThat(covered)
                .as("features covered by the generated queries")
                .containsAll(EnumSet.allOf(SqlQueryGenerator.Feature.class));
        return chosen;
    }

    private static void register(
            StreamTableEnvironment tEnv, StreamExecutionEnvironment env, List<List<Row>> rows, boolean changelog) {
        for (int t = 0; t < SqlQueryGenerator.TABLES.length; t++) {
            if (changelog) {
                SqlTestTables.registerChangelog(
                        tEnv, env, SqlQueryGenerator.TABLES[t], SqlQueryGenerator.TYPES[t], rows.get(t));
            } else {
                SqlTestTables.register(tEnv, env, SqlQueryGenerator.TABLES[t], SqlQueryGenerator.TYPES[t], rows.get(t));
            }
        }
    }
}
