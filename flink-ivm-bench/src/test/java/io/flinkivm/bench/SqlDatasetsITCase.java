package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL datasets in the Flink suite, small: every dataset by flink-ivm and Flink SQL, and one by all six
 * systems at parallelism 1 and 2, each result checked against the first (the suite aborts on a
 * disagreement), with RocksDB's state compared.
 */
class SqlDatasetsITCase {

    @TempDir
    Path dir;

    @Test
    void everyDatasetRunsOnFlinkIvmAndFlinkSqlWithTheSameResult() throws Exception {
        List<Measurement> ms = run(SqlDatasets.all(), List.of(1), List.of("flink-ivm-heap", "flink-sql"));
        assertThat(ms)
                .extracting(m -> m.query() + " " + m.system())
                .containsExactly(
                        "tpch-q3 flink-ivm-heap",
                        "tpch-q3 flink-sql",
                        "tpch-q10 flink-ivm-heap",
                        "tpch-q10 flink-sql",
                        "star-revenue flink-ivm-heap",
                        "star-revenue flink-sql",
                        "snowflake flink-ivm-heap",
                        "snowflake flink-sql",
                        "nexmark-q3 flink-ivm-heap",
                        "nexmark-q3 flink-sql",
                        "nexmark-q20 flink-ivm-heap",
                        "nexmark-q20 flink-sql",
                        "bids-per-window flink-ivm-heap",
                        "bids-per-window flink-sql");
        assertThat(ms)
                .filteredOn(m -> m.system().equals("flink-sql"))
                .allSatisfy(m -> assertThat(m.note()).as(m.query()).contains("result = flink-ivm-heap ("));
        assertThat(ms).allSatisfy(m -> assertThat(m.distribution()).isIn("tpch", "nexmark", "snowflake"));
        // Every dataset's filters leave rows at small n too.
        assertThat(ms).allSatisfy(m -> assertThat(m.note()).as(m.query()).doesNotContain("(0 rows)", ": 0 rows"));
    }

    @Test
    void allSixSystemsAtTwoParallelisms() throws Exception {
        StringWriter printed = new StringWriter();
        List<Measurement> ms = run(List.of(SqlDatasets.all().get(0)), List.of(1, 2), null, printed);
        assertThat(ms).hasSize(12);
        assertThat(ms)
                .filteredOn(m -> !m.system().equals("flink-ivm-heap") || m.parallelism() == 2)
                .allSatisfy(m -> assertThat(m.note()).contains("result = flink-ivm-heap ("));
        assertThat(ms)
                .filteredOn(m -> m.system().endsWith("rocksdb"))
                .allSatisfy(m -> assertThat(m.stateSize()).isPositive());
        assertThat(printed.toString())
                .contains(
                        "== suite flink (Flink operators): inserts per second, SQL dataset tpch-q3",
                        "   query: select l_orderkey, sum(l_extendedprice * (1 - l_discount)) as revenue,",
                        "   flink-ivm's plan: Plan: p-hierarchical",
                        "   plan of flink-ivm-heap, flink-ivm-rocksdb:\n     Closure under the keys",
                        "\n     Flink job:\n       ingest Q",
                        "   plan of flink-sql, flink-sql-rocksdb:\n     ",
                        "Join(joinType=[InnerJoin]",
                        "   plan of flink-sql-minibatch, flink-sql-minibatch-rocksdb:\n     ",
                        "MiniBatchAssigner",
                        "Guarantee: amortized O(1) per insert",
                        "flink-sql-minibatch: tEnv.sqlQuery on the query's text, table.exec.mini-batch.enabled = true",
                        "ratio flink-ivm-heap/flink-sql-minibatch (inserts per second, at the largest n where both completed;",
                        "state flink-ivm-rocksdb/flink-sql-rocksdb (bytes",
                        "  tpch: P=1 n=2000 ");
        List<String> lines = Files.readAllLines(dir.resolve("results.csv"), StandardCharsets.UTF_8);
        assertThat(lines)
                .hasSize(1 + 12)
                .anyMatch(l -> l.startsWith("tpch-q3,flink-sql-rocksdb,tpch,2000,"))
                .anyMatch(l -> l.startsWith("tpch-q3,flink-sql-minibatch-rocksdb,tpch,2000,"));
    }

    private List<Measurement> run(List<SqlDataset> datasets, List<Integer> ps, List<String> systems) throws Exception {
        return run(datasets, ps, systems, new StringWriter());
    }

    private List<Measurement> run(
            List<SqlDataset> datasets, List<Integer> ps, List<String> systems, StringWriter printed) throws Exception {
        BenchSettings settings = new BenchSettings(
                false,
                7,
                1,
                1,
                Duration.ofSeconds(60),
                Duration.ofSeconds(120),
                List.of(2_000),
                List.of(Distribution.UNIFORM),
                false,
                null,
                systems,
                0,
                ps,
                0,
                false);
        return BenchCommand.run(
                List.of(FlinkSuite.sql(datasets, SqlSystem.all())), settings, dir, new PrintWriter(printed));
    }
}
