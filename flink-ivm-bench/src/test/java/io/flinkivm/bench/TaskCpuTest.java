package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The serial share, Amdahl's bound and the imbalance on synthetic per-thread samples. */
class TaskCpuTest {
    private static final long MS = 1_000_000;

    private static TaskCpu.Subtask thread(String name, long cpuMillis) {
        TaskCpu.Subtask s = TaskCpu.parse(name);
        assertThat(s).as(name).isNotNull();
        return new TaskCpu.Subtask(s.chain(), s.index(), s.parallelism(), cpuMillis * MS);
    }

    @Test
    void parsesFlinkTaskThreadNamesWithParenthesesInTheChainName() {
        assertThat(TaskCpu.parse("V[A,B] (join over B) -> count ivm-dead-letters (2/4)#0"))
                .isEqualTo(new TaskCpu.Subtask("V[A,B] (join over B) -> count ivm-dead-letters", 2, 4, 0));
        assertThat(TaskCpu.parse("Source: inserts (1/1)#3")).isEqualTo(new TaskCpu.Subtask("Source: inserts", 1, 1, 0));
        // A task's network flusher is named after it and counts as that subtask.
        assertThat(TaskCpu.parse("OutputFlusher for forward 1 (2/2)#0"))
                .isEqualTo(new TaskCpu.Subtask("forward 1", 2, 2, 0));
        assertThat(TaskCpu.parse("flink-pekko.actor.default-dispatcher-4")).isNull();
        assertThat(TaskCpu.parse("odd (3/2)#0"))
                .as("a subtask beyond the parallelism")
                .isNull();
    }

    @Test
    void serialShareIsTheCpuOfChainsAtParallelismOneOverAllTaskCpu() {
        // ingest at parallelism 1 (300 ms), a view at 2 (400 + 200 ms), the sink at 1 (100 ms).
        TaskCpu cpu = new TaskCpu(List.of(
                thread("ingest (1/1)#0", 300),
                thread("V[A] (1/2)#0", 400),
                thread("V[A] (2/2)#0", 200),
                thread("OutputFlusher for V[A] (2/2)#0", 0),
                thread("sink (1/1)#0", 100)));

        assertThat(cpu.totalNanos()).isEqualTo(1000 * MS);
        assertThat(cpu.serialNanos()).isEqualTo(400 * MS);
        assertThat(cpu.serialShare()).isCloseTo(0.4, offset(1e-12));
        assertThat(cpu.amdahlBound()).isCloseTo(2.5, offset(1e-12));
        assertThat(cpu.chains()).extracting(TaskCpu.Chain::name).containsExactly("ingest", "V[A]", "sink");
        TaskCpu.Chain view = cpu.chains().get(1);
        assertThat(view.cpuNanos()).containsExactly(400 * MS, 200 * MS);
        // max 400 over mean 300.
        assertThat(view.imbalance()).isCloseTo(4.0 / 3, offset(1e-12));
        assertThat(cpu.share(view)).isCloseTo(0.6, offset(1e-12));
        assertThat(cpu.mostImbalanced().name()).isEqualTo("V[A]");
        assertThat(cpu.maxImbalance()).isCloseTo(4.0 / 3, offset(1e-12));
    }

    @Test
    void theSourcesChainsComeFirstWhateverOrderTheirThreadsWereSeenIn() {
        TaskCpu cpu = new TaskCpu(List.of(
                thread("forward 1 (1/2)#0", 10),
                thread("Source: inserts (2/2)#0", 20),
                thread("forward 2 (1/2)#0", 30),
                thread("Source: inserts (1/2)#0", 40)));
        assertThat(cpu.chains())
                .extracting(TaskCpu.Chain::name)
                .containsExactly("Source: inserts", "forward 1", "forward 2");
        assertThat(cpu.chains().get(0).cpuNanos()).containsExactly(40 * MS, 20 * MS);
    }

    @Test
    void aFullyParallelJobHasNoSerialShareAndAnUnboundedSpeedUp() {
        TaskCpu cpu = new TaskCpu(List.of(
                thread("Source: inserts (1/2)#0", 50),
                thread("Source: inserts (2/2)#0", 50),
                thread("forward 1 (1/2)#0", 70),
                thread("forward 1 (2/2)#0", 30)));

        assertThat(cpu.serialShare()).isZero();
        assertThat(cpu.amdahlBound()).isInfinite();
        // forward 1: max 70 over mean 50; the even source does not count.
        assertThat(cpu.maxImbalance()).isCloseTo(1.4, offset(1e-12));
        assertThat(cpu.mostImbalanced().name()).isEqualTo("forward 1");
    }

    @Test
    void aSubtaskNeverSeenCountsAsZeroInTheMeanAndSmallChainsDoNotDecideTheImbalance() {
        // Skew: one of four subtasks does all of the view's work; subtask 4 was never sampled.
        TaskCpu cpu = new TaskCpu(List.of(
                thread("V[A] (1/4)#0", 900),
                thread("V[A] (2/4)#0", 0),
                thread("V[A] (3/4)#0", 0),
                thread("dead letters (1/4)#0", 3),
                thread("dead letters (2/4)#0", 0)));

        TaskCpu.Chain view = cpu.chains().get(0);
        assertThat(view.imbalance()).isCloseTo(4.0, offset(1e-12));
        // "dead letters" is just as uneven (4.0) but has 0.3% of the task CPU: below the 5% that counts.
        assertThat(cpu.chains().get(1).imbalance()).isCloseTo(4.0, offset(1e-12));
        assertThat(cpu.mostImbalanced().name()).isEqualTo("V[A]");
    }

    @Test
    void atParallelismOneEverythingIsSerialAndNothingCanBeUneven() {
        TaskCpu cpu = new TaskCpu(List.of(thread("Source: inserts (1/1)#0", 10), thread("forward 1 (1/1)#0", 20)));

        assertThat(cpu.serialShare()).isEqualTo(1.0);
        assertThat(cpu.amdahlBound()).isEqualTo(1.0);
        assertThat(cpu.mostImbalanced()).isNull();
        assertThat(cpu.maxImbalance()).isNaN();
    }

    @Test
    void withoutTaskCpuTheFiguresAreUnknown() {
        assertThat(TaskCpu.NONE.serialShare()).isNaN();
        assertThat(TaskCpu.NONE.amdahlBound()).isNaN();
        assertThat(TaskCpu.NONE.maxImbalance()).isNaN();
        assertThat(new TaskCpu(List.of(thread("idle (1/2)#0", 0), thread("idle (2/2)#0", 0))).maxImbalance())
                .isNaN();
    }
}
