package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * flink-ivm and Flink SQL read the same stream the same way: both from a source of the stream's indices
 * with their records built before the job (a changelog's by row), Flink SQL's tables with TPC-H's primary
 * keys; with object reuse off and on, both end with the core engine's result.
 */
class LikeForLikeITCase {

    @TempDir
    Path dir;

    private List<Measurement> run(Workload w, boolean objectReuse, StringWriter printed) throws Exception {
        BenchSettings settings = BenchHarnessTest.uniform(
                        List.of(3_000), BenchSettings.DEFAULT_COUNT_UP_TO, List.of(1, 2))
                .withObjectReuse(objectReuse);
        return BenchCommand.run(
                List.of(new FlinkSuite(
                        w,
                        List.of(
                                new FlinkIvmSystem("hashmap"),
                                new FlinkSqlSystem(),
                                FlinkSqlSystem.miniBatchOnRocksDb(),
                                new TrivialKeyedSystem()))),
                settings,
                dir,
                new PrintWriter(printed));
    }

    @Test
    void tpchWithAndWithoutObjectReuseGivesTheCoreEnginesResultOnBothSides() throws Exception {
        for (boolean reuse : List.of(false, true)) {
            StringWriter printed = new StringWriter();
            List<Measurement> ms = run(new TpchWorkload(), reuse, printed);

            assertThat(ms).hasSize(8);
            assertThat(ms)
                    .filteredOn(m -> !m.system().startsWith("trivial"))
                    .allSatisfy(m -> assertThat(m.note())
                            .as(m.system() + " P=" + m.parallelism() + " reuse " + reuse)
                            .contains("result = core p-hierarchical"));
            for (Measurement m : ms) {
                // Every system's first chain: the source of the stream's indices and the lookup of its records.
                assertThat(m.taskCpu().chains())
                        .as(m.system())
                        .anyMatch(c -> c.name().startsWith("Source: inserts -> ")
                                && (c.name().contains("input records")
                                        || c.name().contains("rows by table")));
            }
            assertThat(printed.toString())
                    .contains(
                            "object reuse: " + (reuse ? "on" : "off"),
                            "primary keys Customer(c1), Orders(c1), Lineitem(c1, c2)");
            assertThat(Files.readAllLines(dir.resolve("results.csv"), StandardCharsets.UTF_8)
                            .subList(1, 9))
                    .allSatisfy(l -> assertThat(l).endsWith("," + (reuse ? "on" : "off")));
        }
    }

    @Test
    void aChangelogWithKeysGivesTheCoreEnginesResultOnBothSides() throws Exception {
        StringWriter printed = new StringWriter();
        List<Measurement> ms = run(new ChangesWorkload(new TpchWorkload()), false, printed);

        assertThat(ms)
                .filteredOn(m -> !m.system().startsWith("trivial"))
                .hasSize(6)
                .allSatisfy(m -> assertThat(m.note())
                        .as(m.system() + " P=" + m.parallelism())
                        .contains("result = core "));
    }
}
