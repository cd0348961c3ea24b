package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the Flink suite decides before it starts a job. */
class FlinkSuiteTest {

    private static BenchSettings at(List<Integer> ps) {
        return BenchHarnessTest.uniform(null).withParallelisms(ps);
    }

    @Test
    void aChangelogWorkloadRunsAtParallelismOneOnlyAndSaysSo() {
        Workload changes = Workloads.changes().get(0);
        StringWriter printed = new StringWriter();
        PrintWriter out = new PrintWriter(printed);

        assertThat(FlinkSuite.parallelisms(changes, at(List.of(1, 2, 4)), out)).containsExactly(1);
        assertThat(FlinkSuite.parallelisms(changes, at(List.of(2)), out)).isEmpty();
        assertThat(FlinkSuite.parallelisms(changes, at(List.of(1)), out)).containsExactly(1);
        assertThat(FlinkSuite.parallelisms(new StarWorkload(), at(List.of(1, 2)), out))
                .containsExactly(1, 2);

        assertThat(printed.toString())
                .contains(
                        "star-changes runs at P = 1 only, not at P = 2, 4: the bench's source gives each subtask",
                        "star-changes runs at P = 1 only, not at P = 2:")
                .doesNotContain("== suite flink: star runs");
    }
}
