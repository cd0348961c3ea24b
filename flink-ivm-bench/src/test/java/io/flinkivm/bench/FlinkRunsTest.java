package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Jobs on the bench's MiniCluster at parallelism 2: the parallel source reads every index once, the
 * counting sinks are chained to their input, and the task threads' CPU shows which chains are serial.
 */
class FlinkRunsTest {
    private static final Duration CAP = Duration.ofMinutes(2);

    @AfterAll
    static void stopCluster() throws Exception {
        FlinkRuns.shutdown();
    }

    private static List<Long> numbers(int n) {
        List<Long> out = new ArrayList<>(n);
        for (long i = 0; i < n; i++) {
            out.add(i);
        }
        return out;
    }

    /** Some work per record, so that its chain's CPU stands out from a thread's start and end. */
    static final class Spin implements MapFunction<Long, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long map(Long v) {
            long x = v;
            for (int i = 0; i < 2_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            return x == 42 ? v + 1 : v;
        }
    }

    @Test
    void theBenchsFlinkConfEntriesOverrideItsOwnSettingsInEveryEnvironment() {
        try {
            FlinkRuns.overrides(Map.of("state.backend.rocksdb.compaction.style", "LEVEL", "pipeline.name", "probe"));
            Configuration c =
                    (Configuration) FlinkRuns.environment("rocksdb", 1).getConfiguration();

            assertThat(c.toMap())
                    .containsEntry("state.backend.rocksdb.compaction.style", "LEVEL")
                    .containsEntry("pipeline.name", "probe");
        } finally {
            FlinkRuns.overrides(Map.of());
        }
        Configuration defaults =
                (Configuration) FlinkRuns.environment("rocksdb", 1).getConfiguration();
        assertThat(defaults.toMap()).containsEntry("state.backend.rocksdb.compaction.style", "UNIVERSAL");
    }

    @Test
    void aChainAtParallelismOneTakesASerialShareOfTheTaskCpu() throws Exception {
        StreamExecutionEnvironment env = FlinkRuns.environment("hashmap", 2);
        FlinkRuns.Execution e;
        try (IndexedInput<Long> input = IndexedInput.of(numbers(20_000))) {
            DataStream<Long> s = input.source(env, Types.LONG, "numbers");
            s = s.keyBy(v -> v % 100, Types.LONG)
                    .map(new Spin())
                    .name("serial spin")
                    .setParallelism(1);
            FlinkRuns.count(s, "spun");
            e = FlinkRuns.execute(env, "serial share test", CAP);
        }

        assertThat(e.completed()).isTrue();
        assertThat(e.counter("spun")).isEqualTo(20_000);
        assertThat(e.parallelism()).isEqualTo(2);
        TaskCpu cpu = e.taskCpu();
        assertThat(cpu.chains())
                .extracting(c -> c.name() + " (" + c.parallelism() + ")")
                .containsExactlyInAnyOrder(
                        "Source: numbers (2)", "serial spin -> count spun -> discard spun: Writer (1)");
        TaskCpu.Chain serial = cpu.chains().stream()
                .filter(c -> c.parallelism() == 1)
                .findFirst()
                .orElseThrow();
        assertThat(cpu.serialShare()).isGreaterThan(0.05).isLessThan(1.0).isEqualTo(cpu.share(serial));
        assertThat(cpu.amdahlBound()).isGreaterThan(1.0);
        assertThat(e.cpuNanos())
                .as("the process's CPU covers the task threads'")
                .isGreaterThan(cpu.totalNanos() / 2);
    }

    @Test
    void aJobWhoseChainsAllRunAtParallelismTwoHasNoSerialShare() throws Exception {
        Workload w = new Example10Workload();
        InsertStream stream = w.generate(2_000, Distribution.ZIPF, 7);

        RunResult parallel = TrivialKeyedSystem.minimal().run(w, stream, CAP, 2);
        RunResult serial = TrivialKeyedSystem.minimal().run(w, stream, CAP, 1);

        assertThat(parallel.completed()).isTrue();
        assertThat(parallel.note()).isEqualTo("2 hops");
        assertThat(parallel.parallelism()).isEqualTo(2);
        // Source, two forwarding hops (the counting sink chained to the second): three chains, each at 2.
        // In the order their threads were first sampled, which follows the tasks' start: not fixed under load.
        assertThat(parallel.taskCpu().chains())
                .extracting(TaskCpu.Chain::name)
                .containsExactlyInAnyOrder(
                        "Source: inserts",
                        "forward 1",
                        "forward 2 -> count trivial-out -> discard trivial-out: Writer");
        assertThat(parallel.taskCpu().chains()).allMatch(c -> c.parallelism() == 2 && c.total() > 0);
        assertThat(parallel.taskCpu().serialShare()).isZero();
        assertThat(parallel.taskCpu().amdahlBound()).isInfinite();
        assertThat(parallel.taskCpu().maxImbalance()).isBetween(1.0, 2.0);
        assertThat(serial.taskCpu().serialShare()).isEqualTo(1.0);
        assertThat(serial.taskCpu().chains()).hasSize(3).allMatch(c -> c.parallelism() == 1);
    }

    @Test
    void aJobCannotReadAnInputThatWasReleased() throws Exception {
        StreamExecutionEnvironment env = FlinkRuns.environment("hashmap", 2);
        IndexedInput<Long> input = IndexedInput.of(numbers(10));
        FlinkRuns.count(input.source(env, Types.LONG, "numbers"), "read");
        input.close();

        assertThat(IndexedInput.registered(input.id())).isFalse();
        assertThatThrownBy(() -> FlinkRuns.execute(env, "released input test", CAP))
                .hasStackTraceContaining("bench input " + input.id() + " is not registered in this JVM");
    }

    @Test
    void aParallelismBelowOneIsRefused() {
        assertThatThrownBy(() -> FlinkRuns.environment("hashmap", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("parallelism must be at least 1");
    }
}
