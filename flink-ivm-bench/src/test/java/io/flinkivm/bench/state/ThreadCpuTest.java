package io.flinkivm.bench.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

    @Test
    void readsUserAndSystemTicksPastANameWithSpacesAndParentheses() {
        String stat = "18820 (V[A,B] (join ) R 18650 18650 1 0 -1 4194624 1234 0 0 0 712 95 0 0 20 0 1 0 63000 0 0";

        assertThat(ThreadCpu.ticks(stat)).isEqualTo(712 + 95);
        assertThat(ThreadCpu.ticks("garbage")).isEqualTo(-1);
    }

    @Test
    void groupsTaskRocksDbGcAndJitThreads() {
        assertThat(ThreadCpu.group("V[A,B,D] (join ", "V[A,B,D] (join over D) (1/1)#0"))
                .isEqualTo("task V[A,B,D] (join over D)");
        assertThat(ThreadCpu.group("Boolean join + ", "Boolean join + payload recovery (sink) -> progress (1/2)#3"))
                .isEqualTo("task Boolean join + payload recovery (sink) -> progress");
        assertThat(ThreadCpu.group("rocksdb:low", "rocksdb:low")).isEqualTo("RocksDB compaction");
        assertThat(ThreadCpu.group("rocksdb:high", "rocksdb:high")).isEqualTo("RocksDB flush");
        assertThat(ThreadCpu.group("GC Thread#1", "GC Thread#1")).isEqualTo("GC");
        assertThat(ThreadCpu.group("C2 CompilerThre", "C2 CompilerThread0")).isEqualTo("JIT");
        assertThat(ThreadCpu.group("flink-pekko.act", "flink-pekko.actor.default-dispatcher-4"))
                .isEqualTo("other (flink-pekko.act)");
    }

    @Test
    void aBusyThreadShowsUpInItsGroup() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread busy = new Thread(
                () -> {
                    long x = 0;
                    while (!stop.get()) {
                        x += System.identityHashCode(new Object());
                    }
                    if (x == 42) {
                        System.out.println(x);
                    }
                },
                "spin (1/1)#0");
        Map<String, Long> before = ThreadCpu.sample();
        busy.start();
        long spun = 0;
        try {
            // Wait (on a loaded machine, a while) until the spinning thread has used 30 ms of CPU.
            for (long deadline = System.nanoTime() + 20_000_000_000L;
                    spun < 30_000_000L && System.nanoTime() < deadline; ) {
                Thread.sleep(50);
                spun = ThreadCpu.minus(ThreadCpu.sample(), before).getOrDefault("task spin", 0L);
            }
        } finally {
            stop.set(true);
            busy.join();
        }

        if (!before.isEmpty()) { // Linux only
            assertThat(spun).isGreaterThanOrEqualTo(30_000_000L);
            assertThat(before).containsKey("JIT");
        }
    }
}
