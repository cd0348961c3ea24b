package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Jobs on the bench's MiniCluster at parallelism 2: the parallel source reads every index once, the
 * counting sinks are chained to their input, and the task threads' CPU shows which chains are serial;
 * an input read by row keeps each row's records on one subtask, in order (at parallelism 3).
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
                        "Source: inserts -> input records",
                        "forward 1",
                        "forward 2 -> count trivial-out -> discard trivial-out: Writer");
        assertThat(parallel.taskCpu().chains()).allMatch(c -> c.parallelism() == 2 && c.total() > 0);
        assertThat(parallel.taskCpu().serialShare()).isZero();
        assertThat(parallel.taskCpu().amdahlBound()).isInfinite();
        assertThat(parallel.taskCpu().maxImbalance()).isBetween(1.0, 2.0);
        assertThat(serial.taskCpu().serialShare()).isEqualTo(1.0);
        assertThat(serial.taskCpu().chains()).hasSize(3).allMatch(c -> c.parallelism() == 1);
    }

    /** Records each value with the subtask that saw it, in the order each subtask saw them. */
    static final class Witness extends RichMapFunction<Long, Long> {
        private static final long serialVersionUID = 1L;
        static final Map<Long, Integer> SUBTASK = new ConcurrentHashMap<>();
        static final List<List<Long>> SEEN = new CopyOnWriteArrayList<>();
        private transient List<Long> seen;

        @Override
        public void open(OpenContext context) {
            seen = new CopyOnWriteArrayList<>();
            SEEN.add(seen);
        }

        @Override
        public Long map(Long v) {
            SUBTASK.put(v, getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
            seen.add(v);
            return v;
        }
    }

    @Test
    void anInputReadByRowKeepsEachRowsRecordsOnOneSubtaskInOrder() throws Exception {
        int n = 3_000;
        int rowCount = 40;
        int[] rows = new int[n];
        for (int i = 0; i < n; i++) {
            rows[i] = i % rowCount;
        }
        Witness.SUBTASK.clear();
        Witness.SEEN.clear();
        StreamExecutionEnvironment env = FlinkRuns.environment("hashmap", 3);
        FlinkRuns.Execution e;
        try (IndexedInput<Long> input = IndexedInput.byRow(numbers(n), rows, 3)) {
            FlinkRuns.count(input.source(env, Types.LONG, "numbers").map(new Witness()), "read");
            e = FlinkRuns.execute(env, "by-row input test", CAP);
        }

        assertThat(e.completed()).isTrue();
        assertThat(e.counter("read")).isEqualTo(n);
        assertThat(Witness.SUBTASK).hasSize(n);
        for (int r = 0; r < rowCount; r++) {
            int row = r;
            assertThat(Witness.SUBTASK.entrySet().stream()
                            .filter(v -> v.getKey() % rowCount == row)
                            .map(Map.Entry::getValue)
                            .distinct())
                    .as("the subtasks that read row %d", row)
                    .hasSize(1);
        }
        // A subtask may read more than one partition, one after the other: each row's records come in order.
        assertThat(Witness.SEEN).allSatisfy(seen -> {
            for (int r = 0; r < rowCount; r++) {
                int row = r;
                assertThat(seen.stream().filter(v -> v % rowCount == row).toList())
                        .isSorted();
            }
        });
        assertThat(e.state().checkpoint())
                .as("the final checkpoint, with the readers' positions")
                .isNotNull();
    }

    @Test
    void aByRowInputWithAnEmptyPartitionIsReadWhole() throws Exception {
        StreamExecutionEnvironment env = FlinkRuns.environment("hashmap", 2);
        FlinkRuns.Execution e;
        try (IndexedInput<Long> input = IndexedInput.byRow(numbers(1), new int[] {5}, 2)) {
            FlinkRuns.count(input.source(env, Types.LONG, "one number"), "read");
            e = FlinkRuns.execute(env, "empty partition test", CAP);
        }

        assertThat(e.completed()).isTrue();
        assertThat(e.counter("read")).isEqualTo(1);
    }

    @Test
    void aByRowInputNeedsOneHashPerItem() {
        assertThatThrownBy(() -> IndexedInput.byRow(numbers(3), new int[2], 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one row hash per item (2 for 3)");
    }

    @Test
    void aPartitionsPositionSurvivesItsSerializers() throws Exception {
        OrderedPartitionSource.Part<Long> part = new OrderedPartitionSource.Part<>(7, 2, 5, 9);
        OrderedPartitionSource.PartSerializer<Long> one = new OrderedPartitionSource.PartSerializer<>();
        OrderedPartitionSource.PartsSerializer<Long> all = new OrderedPartitionSource.PartsSerializer<>();

        assertThat(one.deserialize(one.getVersion(), one.serialize(part))).isEqualTo(part);
        assertThat(all.deserialize(
                        all.getVersion(),
                        all.serialize(List.of(
                                part,
                                part.getUpdatedSplitForIterator(
                                        new OrderedPartitionSource.Cursor<>(List.of(), 8, 9))))))
                .containsExactly(part, new OrderedPartitionSource.Part<>(7, 2, 8, 9));
        assertThatThrownBy(() -> one.deserialize(2, one.serialize(part)))
                .isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("unknown version 2");
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
