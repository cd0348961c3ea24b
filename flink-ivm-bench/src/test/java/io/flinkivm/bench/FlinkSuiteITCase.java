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

/** The Flink suite at parallelism 1 and 2 on a small stream: every result checked, the parallelism figures reported. */
class FlinkSuiteITCase {

    @TempDir
    Path dir;

    @Test
    void everySystemRunsAtEachParallelismWithItsResultChecked() throws Exception {
        Workload w = new Example10Workload();
        BenchSettings settings = new BenchSettings(
                        false,
                        7,
                        1,
                        1,
                        Duration.ofSeconds(60),
                        Duration.ofSeconds(120),
                        List.of(2_000),
                        List.of(Distribution.UNIFORM),
                        false)
                .withParallelisms(List.of(2, 1));
        StringWriter printed = new StringWriter();

        List<Measurement> ms = BenchCommand.run(
                List.of(new FlinkSuite(
                        w,
                        List.of(
                                new FlinkIvmSystem("hashmap"),
                                new FlinkSqlSystem(),
                                FlinkSqlSystem.miniBatch(),
                                new TrivialKeyedSystem(),
                                TrivialKeyedSystem.minimal()))),
                settings,
                dir,
                new PrintWriter(printed));

        assertThat(ms)
                .extracting(m -> m.system() + " P=" + m.parallelism())
                .containsExactly(
                        "flink-ivm-heap P=1",
                        "flink-ivm-heap P=2",
                        "flink-sql P=1",
                        "flink-sql P=2",
                        "flink-sql-minibatch P=1",
                        "flink-sql-minibatch P=2",
                        "trivial-keyed P=1",
                        "trivial-keyed P=2",
                        "trivial-keyed-minimal P=1",
                        "trivial-keyed-minimal P=2");
        // The suite aborts on a wrong result; each system with a result was checked against the core engine.
        assertThat(ms).filteredOn(m -> !m.system().startsWith("trivial")).allSatisfy(m -> {
            assertThat(m.nsPerInsert().isExact()).as(m.system()).isTrue();
            assertThat(m.note()).as(m.system() + " P=" + m.parallelism()).contains("result = core p-hierarchical");
        });
        for (Measurement m : ms) {
            String who = m.system() + " P=" + m.parallelism();
            TaskCpu cpu = m.taskCpu();
            assertThat(cpu.chains())
                    .as(who)
                    .anyMatch(c -> c.name().startsWith("Source: inserts") && c.parallelism() == m.parallelism());
            // The counting sinks run chained to their input: no chain of their own.
            assertThat(cpu.chains())
                    .as(who)
                    .noneMatch(c -> c.name().startsWith("count ") || c.name().startsWith("discard "));
            assertThat(cpu.serialShare()).as(who).isBetween(0.0, 1.0);
            if (m.parallelism() == 1) {
                assertThat(cpu.serialShare()).as(who).isEqualTo(1.0);
            }
        }
        assertThat(ms)
                .filteredOn(m -> m.system().startsWith("trivial") && m.parallelism() == 2)
                .allSatisfy(m -> assertThat(m.taskCpu().serialShare()).isZero());

        List<String> lines = Files.readAllLines(dir.resolve("results.csv"), StandardCharsets.UTF_8);
        assertThat(lines.get(0))
                .endsWith(",state_ops_per_insert,parallelism,serial_share,max_subtask_imbalance,task_cpu_ns_per_insert,"
                        + "runs,object_reuse");
        assertThat(lines).hasSize(1 + 10);
        String[] f = lines.stream()
                .filter(l -> l.startsWith("ex10,trivial-keyed-minimal,uniform,2000,"))
                .map(l -> l.split(",", -1))
                .filter(r -> r[11].equals("2"))
                .findFirst()
                .orElseThrow();
        assertThat(f).hasSize(17);
        assertThat(f[12]).isEqualTo("0.000");
        assertThat(Double.parseDouble(f[13])).isBetween(1.0, 2.0);
        assertThat(Double.parseDouble(f[14])).as("task CPU per insert").isPositive();
        assertThat(f[15]).as("runs").isEqualTo("1");
        assertThat(f[16]).as("object reuse").isEqualTo("off");
        assertThat(lines)
                .anyMatch(l -> l.startsWith("ex10,flink-sql-minibatch,uniform,2000,") && l.contains(",1,1.000,,"));

        String report = printed.toString();
        assertThat(report)
                .contains(
                        "flink-sql-minibatch: Table API, joins + GROUP BY SUM, table.exec.mini-batch.enabled = true,"
                                + " table.exec.mini-batch.allow-latency = 2 s, table.exec.mini-batch.size = 5000,"
                                + " table.optimizer.agg-phase-strategy = TWO_PHASE",
                        "trivial-keyed-minimal: exactly 2 keyBy hops",
                        "1 task manager, 2 slots",
                        "each system at parallelism P = 1, 2",
                        "Task CPU — ex10",
                        "serial",
                        "amdahl",
                        "imbalance (chain)",
                        "task CPU by operator chain at the largest n",
                        "trivial-keyed-minimal P=2 uniform n=2000: Source: inserts -> input records (2) ",
                        "ratios at P=1, every n:",
                        "ratio flink-ivm-heap/flink-sql (inserts per second):",
                        "ratio flink-ivm-heap/flink-sql-minibatch (inserts per second, at the largest n where both completed;",
                        "ratio flink-ivm-heap/trivial-keyed-minimal (inserts per second, at the largest n where both completed;",
                        "  uniform: P=1 n=2000 ",
                        ", P=2 n=2000 ",
                        "CPU per insert at P=2 / at P=1",
                        "  flink-sql-minibatch: uniform n=2000 ");
        // P = 2 jobs are labelled in the progress lines; the serial share of a fully parallel job is 0, its bound
        // unlimited.
        assertThat(report.lines()
                        .filter(l -> l.startsWith("ex10   uniform")
                                && l.contains("trivial-keyed-minimal")
                                && l.contains(" 2 ")
                                && l.contains("0.000")
                                && l.contains("∞")))
                .hasSize(1);
        assertThat(report).contains("  flink-sql-minibatch P=2 uniform n=2000: ");
    }
}
