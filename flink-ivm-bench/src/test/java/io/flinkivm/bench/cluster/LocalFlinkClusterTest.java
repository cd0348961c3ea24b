package io.flinkivm.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local cluster's bookkeeping, without starting Flink: leftovers, configuration, the script's commands. */
class LocalFlinkClusterTest {

    @TempDir
    Path parent;

    /**
     * A free port for a server to bind comes from below the ephemeral range (Linux's here), which outgoing
     * connections take their source ports from, and can be bound.
     */
    @Test
    void aFreePortLiesBelowTheEphemeralRangeAndCanBeBound() throws Exception {
        int ephemeralStart = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))
                .get(0)
                .trim()
                .split("\\s+")[0]);
        for (int i = 0; i < 20; i++) {
            int port = LocalFlinkCluster.freePort();
            assertThat(port).isBetween(10_000, ephemeralStart - 1);
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            }
        }
    }

    /**
     * A cluster whose starting JVM died: its processes are killed, but only those whose command line names the
     * cluster's home; a cluster whose starting JVM lives is left alone.
     */
    @Test
    void killsTheLeftoversOfAClusterWhoseJvmDied() throws Exception {
        Path orphaned = parent.resolve("orphaned");
        Path owned = parent.resolve("owned");
        Process dead = new ProcessBuilder("true").start();
        dead.waitFor();
        Process marked = fakeProcess(orphaned, true);
        Process stranger = fakeProcess(orphaned, false);
        Process alive = fakeProcess(owned, true);
        try {
            write(orphaned, "owner.pid", dead.pid());
            write(orphaned, "pids/taskmanager-1.pid", marked.pid());
            write(orphaned, "pids/taskmanager-2.pid", stranger.pid());
            write(owned, "owner.pid", ProcessHandle.current().pid());
            write(owned, "pids/jobmanager.pid", alive.pid());

            assertThat(LocalFlinkCluster.killLeftovers(parent)).isEqualTo(1);

            assertThat(marked.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(stranger.isAlive())
                    .as("a process that is not the cluster's")
                    .isTrue();
            assertThat(alive.isAlive()).as("a cluster whose JVM lives").isTrue();
            assertThat(orphaned.resolve("pids/taskmanager-1.pid")).doesNotExist();
            assertThat(orphaned.resolve("owner.pid")).doesNotExist();
        } finally {
            for (Process p : List.of(marked, stranger, alive)) {
                p.destroyForcibly().waitFor();
            }
        }
    }

    @Test
    void everyProcessListensOnTheLoopbackAndTaskManagersHaveTheirMemorySpelledOut() {
        Configuration c =
                ClusterConfiguration.of(parent, new ClusterConfiguration.Ports(8081, 6123), java.util.Map.of());

        assertThat(c.toMap())
                .containsEntry("jobmanager.rpc.address", "127.0.0.1")
                .containsEntry("jobmanager.bind-host", "127.0.0.1")
                .containsEntry("taskmanager.host", "127.0.0.1")
                .containsEntry("taskmanager.bind-host", "127.0.0.1")
                .containsEntry("rest.address", "127.0.0.1")
                .containsEntry("rest.bind-address", "127.0.0.1")
                .containsEntry("taskmanager.numberOfTaskSlots", "2")
                .containsEntry("state.backend.type", "rocksdb")
                .containsEntry("execution.checkpointing.incremental", "true")
                .containsKeys(
                        "taskmanager.memory.framework.heap.size",
                        "taskmanager.memory.task.heap.size",
                        "taskmanager.memory.framework.off-heap.size",
                        "taskmanager.memory.task.off-heap.size",
                        "taskmanager.memory.managed.size",
                        "taskmanager.memory.network.min",
                        "taskmanager.memory.network.max",
                        "taskmanager.memory.jvm-metaspace.size",
                        "taskmanager.memory.jvm-overhead.min",
                        "taskmanager.memory.jvm-overhead.max");
        // Heap = framework + task heap; direct = framework + task off-heap + network, as Flink's scripts compute.
        assertThat(ClusterConfiguration.taskManagerJvmOptions(c))
                .contains("-Xmx320m", "-Xms320m", "-XX:MaxDirectMemorySize=192m", "-XX:MaxMetaspaceSize=256m")
                .contains("--add-opens=java.base/java.util=ALL-UNNAMED");
    }

    @Test
    void theScriptsCommandsSayWhatIsWrong() {
        assertThat(command("start", "--taskmanagers", "0").code()).isEqualTo(2);
        assertThat(command("start", "--taskmanagers", "0").err()).contains("--taskmanagers must be >= 1, got 0");
        assertThat(command("restart").err()).contains("unknown command 'restart'", "Usage: scripts/local-cluster.sh");
        Run status = command("status");
        assertThat(status.code()).isEqualTo(1);
        assertThat(status.out()).contains("no local cluster running in " + parent.resolve("home"));
        assertThat(command("stop").code()).isZero();
        assertThat(command("flink", "list").code()).isEqualTo(1);
        Run start = command("start");
        assertThat(start.code()).isEqualTo(1);
        assertThat(start.err()).contains("build first");
    }

    private record Run(int code, String out, String err) {}

    private Run command(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LocalClusterCommand.run(
                parent.resolve("no-repository"),
                parent.resolve("home"),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A process that runs until killed; with the marker of a cluster in {@code home} on its command line, or not. */
    private static Process fakeProcess(Path home, boolean marked) throws Exception {
        String name = marked
                ? "-D" + LocalFlinkCluster.HOME_PROPERTY + "="
                        + home.toAbsolutePath().normalize()
                : "x";
        return new ProcessBuilder("bash", "-c", "while :; do sleep 0.2; done", name).start();
    }

    private static void write(Path home, String file, long pid) throws Exception {
        Files.createDirectories(home.resolve(file).getParent());
        Files.writeString(home.resolve(file), Long.toString(pid));
    }
}
