package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The parallelism lines of the report on hand-made measurements. */
class ReportTest {

    private static Measurement m(String system, int n, int p, Bounded nsPerInsert, double cpuNsPerInsert) {
        return new Measurement(
                        "ex10",
                        system,
                        "uniform",
                        n,
                        nsPerInsert,
                        nsPerInsert.reciprocal(1e9),
                        Bounded.exact(cpuNsPerInsert),
                        -1,
                        "",
                        1,
                        1,
                        "")
                .withParallelism(p, TaskCpu.NONE);
    }

    private static String print(java.util.function.Consumer<PrintWriter> report) {
        StringWriter s = new StringWriter();
        PrintWriter out = new PrintWriter(s);
        report.accept(out);
        out.flush();
        return s.toString();
    }

    @Test
    void aRatioAtTheLargestNTakesTheLargestNWhereBothCompletedAtEachParallelism() {
        List<Measurement> ms = List.of(
                m("ivm", 10_000, 1, Bounded.exact(1000), 2000), m("sql", 10_000, 1, Bounded.exact(4000), 6000),
                m("ivm", 100_000, 1, Bounded.exact(500), 1000), m("sql", 100_000, 1, Bounded.atLeast(150_000), 3000),
                m("ivm", 10_000, 2, Bounded.exact(800), 2200), m("sql", 10_000, 2, Bounded.exact(2400), 6600),
                m("ivm", 100_000, 2, Bounded.exact(400), 1100), m("sql", 100_000, 2, Bounded.exact(2000), 4400));

        String out = print(o -> Report.ratiosAtLargestN(o, ms, "ivm", "sql", List.of(1, 2)));

        // At P=1 sql hit its cap at 10^5: the line falls back to 10^4 (4000/1000 ns = 4x; cpu 6000/2000 = 3x).
        assertThat(out)
                .isEqualTo("ratio ivm/sql (inserts per second, at the largest n where both completed; above 1: ivm is"
                        + " faster):\n  uniform: P=1 n=10000 4.000 (cpu 3.000), P=2 n=100000 5.000 (cpu 4.000)\n");
        assertThat(print(o -> Report.ratiosAtLargestN(o, ms, "ivm", "nobody", List.of(1, 2))))
                .isEmpty();
    }

    @Test
    void cpuScalingIsTheCpuPerInsertAtTheHighestParallelismOverTheLowest() {
        List<Measurement> ms = List.of(
                m("ivm", 10_000, 1, Bounded.exact(1000), 2000),
                m("ivm", 10_000, 4, Bounded.exact(700), 3000),
                m("ivm", 100_000, 1, Bounded.exact(500), 1000));

        assertThat(print(o -> Report.cpuScaling(o, ms, "ivm", 1, 4))).isEqualTo("  ivm: uniform n=10000 1.500\n");
    }

    @Test
    void theOtherThreadsLineGivesTasksJitGcRocksDbAndTheRestPerInsertAtTheLargestN() {
        TaskCpu cpu = new TaskCpu(List.of(new TaskCpu.Subtask("ingest", 1, 1, 6_000_000)))
                .withOthers(Map.of(
                        "task ingest", 6_100_000L,
                        "JIT", 4_000_000L,
                        "GC", 2_500_000L,
                        "RocksDB flush", 500_000L,
                        "other (flink-pekko.act)", 300_000L,
                        "other (Flink-Metric)", 200_000L,
                        "other (ended)", -100_000L));
        Measurement small = m("ivm", 1_000, 1, Bounded.exact(900), 1800);
        Measurement large = m("ivm", 10_000, 1, Bounded.exact(1000), 2000).withParallelism(1, cpu);

        String out = print(o -> Report.othersAtLargestN(o, List.of(small, large)));

        // Per insert at n = 10^4: the task groups and the group whose threads ended are not counted again.
        assertThat(out)
                .endsWith(":\n  ivm P=1 uniform n=10000: tasks 600, JIT 400, GC 250, RocksDB compaction 0,"
                        + " RocksDB flush 50, other 50\n");
        assertThat(print(o -> Report.othersAtLargestN(o, List.of(small)))).isEmpty();
    }

    @Test
    void chainNamesLoseTheBenchsCountersAndStayShort() {
        assertThat(Report.chainName(
                        "V[A] (root of tree 0) -> count ivm-dead-letters -> discard ivm-dead-letters: Writer"))
                .isEqualTo("V[A] (root of tree 0)");
        assertThat(Report.chainName("x".repeat(80))).hasSize(60).endsWith("…");
    }

    @Test
    void theStateOperationsSlopeIsTakenBetweenTheSmallestAndLargestCountedN() {
        List<Measurement> ms = List.of(
                m("flink-ivm-heap", 10_000, 1, Bounded.exact(9000), 9000).withStateOps(5.0),
                m("flink-ivm-heap", 100_000, 1, Bounded.exact(3000), 3000),
                m("flink-ivm-heap", 1_000_000, 1, Bounded.exact(1000), 1000).withStateOps(50.0),
                m("flink-sql", 10_000, 1, Bounded.exact(9000), 9000));

        String printed = print(out -> {
            Report.stateOpsSlope(out, ms, "flink-ivm-heap");
            Report.stateOpsSlope(out, ms, "flink-sql");
        });

        // Ten times the operations over a hundred times the changes: slope 0.5; flink-sql has no count; the
        // ns slope still spans every measured n: log(1000 / 9000) / log(100).
        assertThat(printed)
                .isEqualTo("  flink-ivm-heap: uniform 0.500 (n=10000..1000000: 5.000 .. 50.00 state operations per"
                        + " insert or change)" + System.lineSeparator());
        assertThat(Report.slope(ms, "flink-ivm-heap", "uniform").value()).isCloseTo(-0.4771, within(1e-3));
    }
}
