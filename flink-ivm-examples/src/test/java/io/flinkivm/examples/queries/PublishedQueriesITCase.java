package io.flinkivm.examples.queries;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.nexmark.NexmarkTables;
import io.flinkivm.examples.tables.GeneratedTable;
import io.flinkivm.examples.tables.NormalizedRows;
import io.flinkivm.examples.testing.CliRun;
import io.flinkivm.examples.tpch.TpchTables;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.sql.FlinkIvmSql;
import io.flinkivm.sql.SqlView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TPC-H Q1, Q3, Q5, Q9 (its join and aggregate), Q10, Q12 and Nexmark q3, q15, q16, q17 (their days computed by
 * Flink: DATE_FORMAT) and q20 as published
 * ({@link PublishedQuery}): {@code explain --sql} accepts each, with the O(1) guarantee for those whose
 * closure under the keys, or absorbed query (Q5, Q9 and Q12 fold every table into lineitem), is
 * p-hierarchical, and the fallback's reason for the others (none of these); and on generated
 * tables whose keys hold (TPC-H at scale factor {@value #SCALE_FACTOR}, {@value #NEXMARK_EVENTS} Nexmark
 * events, each table's rows shuffled, so that a row may come before its key row), flink-ivm's view and Flink
 * SQL's own execution of the same text end with the same rows.
 */
class PublishedQueriesITCase {
    static final double SCALE_FACTOR = 0.004;
    static final long NEXMARK_EVENTS = 20_000;

    /** The queries whose closure under the keys or absorbed query is p-hierarchical (each checked by explain). */
    static final Set<String> CONSTANT_TIME = Set.of(
            "tpch-q1",
            "tpch-q3",
            "tpch-q5",
            "tpch-q9",
            "tpch-q10",
            "tpch-q12",
            "nexmark-q3",
            "nexmark-q15",
            "nexmark-q16",
            "nexmark-q17",
            "nexmark-q20");

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    static List<String> names() {
        return PublishedQuery.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void explainAcceptsItAndStatesItsGuarantee(String name) {
        PublishedQuery q = PublishedQuery.load(name);
        CliRun r = CliRun.of("explain", "--sql", q.sql(), "--schema", q.schema());
        assertThat(r.exitCode()).as(name + ": " + r.err()).isZero();
        if (CONSTANT_TIME.contains(name)) {
            assertThat(r.out()).as(name).contains("Plan: p-hierarchical", "Guarantee: amortized O(1) per insert");
        } else {
            assertThat(r.out())
                    .as(name)
                    .contains("Plan: fallback — first-order delta joins", "Why:\n  - not p-hierarchical: ")
                    .doesNotContain("Guarantee: amortized O(1)");
        }
    }

    @Test
    void theSchemasAreTheGeneratorsTables() {
        for (String name : names()) {
            PublishedQuery q = PublishedQuery.load(name);
            List<GeneratedTable> tables = new ArrayList<>();
            for (String t : q.tables()) {
                tables.add(name.startsWith("tpch") ? TpchTables.empty(t) : NexmarkTables.empty(t));
            }
            assertThat(q.schema()).as(name).isEqualTo(GeneratedTable.schemaText(tables));
        }
    }

    @Test
    void flinkIvmEqualsFlinkSqlOnGeneratedTables() throws Exception {
        Configuration config = new Configuration();
        config.setString("parallelism.default", "2");
        config.setString("pipeline.generic-types", "false");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        Random random = new Random(30);
        for (GeneratedTable t : TpchTables.generate(SCALE_FACTOR, TpchTables.NAMES)) {
            shuffled(t, random).register(tEnv, env);
        }
        List<String> nexmark = List.of(NexmarkTables.PERSON, NexmarkTables.AUCTION, NexmarkTables.BID);
        for (GeneratedTable t : NexmarkTables.generate(NEXMARK_EVENTS, 5, nexmark)) {
            shuffled(t, random).register(tEnv, env);
        }
        Map<String, CloseableIterator<Row>> ivm = new LinkedHashMap<>();
        Map<String, CloseableIterator<Row>> flink = new LinkedHashMap<>();
        for (String name : names()) {
            String sql = PublishedQuery.load(name).sql();
            SqlView view = FlinkIvmSql.sql(tEnv, sql, IvmOptions.defaults().withSnapshotEvery(2_000));
            ivm.put(name, tEnv.toChangelogStream(view.table()).collectAsync());
            flink.put(name, tEnv.toChangelogStream(tEnv.sqlQuery(sql)).collectAsync());
        }
        // Every result is read while the job runs, each by its own thread: a collect sink whose client does
        // not read holds the job back once its buffer is full.
        ExecutorService readers = Executors.newCachedThreadPool();
        try {
            JobClient job = env.executeAsync("published queries: flink-ivm and Flink SQL");
            Map<String, Future<Map<List<Object>, Integer>>> ivmResults = read(ivm, readers);
            Map<String, Future<Map<List<Object>, Integer>>> flinkResults = read(flink, readers);
            job.getJobExecutionResult().get();
            for (String name : names()) {
                Map<List<Object>, Integer> expected = flinkResults.get(name).get();
                assertThat(expected).as(name).isNotEmpty();
                assertThat(ivmResults.get(name).get()).as(name).isEqualTo(expected);
            }
        } finally {
            readers.shutdownNow();
            for (String name : names()) {
                ivm.get(name).close();
                flink.get(name).close();
            }
        }
    }

    private static Map<String, Future<Map<List<Object>, Integer>>> read(
            Map<String, CloseableIterator<Row>> changelogs, ExecutorService readers) {
        Map<String, Future<Map<List<Object>, Integer>>> out = new LinkedHashMap<>();
        changelogs.forEach((name, rows) -> out.put(name, readers.submit(() -> NormalizedRows.result(rows))));
        return out;
    }

    /** The table with its rows in a random order. */
    private static GeneratedTable shuffled(GeneratedTable t, Random random) {
        List<Row> rows = new ArrayList<>(t.rows());
        Collections.shuffle(rows, random);
        return t.withRows(rows);
    }
}
