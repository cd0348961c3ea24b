package io.flinkivm.bench.cluster;

import io.flinkivm.flink.RocksDbTuning;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ConfigurationUtils;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.HeartbeatManagerOptions;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;

/**
 * The configuration of a local cluster, defined once: the {@code config.yaml} its processes read, and the JVM
 * options derived from it (what Flink's own scripts would compute). Everything listens on 127.0.0.1. Each
 * TaskManager has {@value #SLOTS} slots and about 1 GiB with every memory component spelled out (a TaskManager
 * started without Flink's scripts refuses to start otherwise); state on RocksDB with flink-ivm's settings
 * ({@link RocksDbTuning}), incremental checkpoints and savepoints in the cluster's directory.
 */
public final class ClusterConfiguration {

    /** Slots per TaskManager. */
    public static final int SLOTS = 2;

    /**
     * The JVM options of Flink's distribution for Java 17 ({@code env.java.opts.all} in its config.yaml):
     * without them the client fails to translate a DataStream job and Kryo cannot reach JDK internals.
     */
    public static final String JAVA_17_OPTIONS = "--add-exports=java.base/sun.net.util=ALL-UNNAMED"
            + " --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED"
            + " --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED"
            + " --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED"
            + " --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED"
            + " --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED"
            + " --add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED"
            + " --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED"
            + " --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED"
            + " --add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED";

    /** The file name of Flink's configuration in the configuration directory. */
    public static final String CONFIG_FILE = GlobalConfiguration.FLINK_CONF_FILENAME;

    static final String LOG4J_FILE = "log4j.properties";
    static final String LOG4J_CLI_FILE = "log4j-cli.properties";

    private static final String LOOPBACK = "127.0.0.1";

    private ClusterConfiguration() {}

    /** The ports a cluster listens on that clients and TaskManagers must know in advance. */
    public record Ports(int rest, int jobManagerRpc) {}

    /**
     * The configuration of a cluster whose files live under {@code home}, with {@code overrides} (e.g. high
     * availability) on top.
     */
    public static Configuration of(Path home, Ports ports, Map<String, String> overrides) {
        Configuration c = new Configuration();
        c.set(JobManagerOptions.ADDRESS, LOOPBACK);
        c.set(JobManagerOptions.BIND_HOST, LOOPBACK);
        c.set(JobManagerOptions.PORT, ports.jobManagerRpc());
        c.set(JobManagerOptions.JVM_HEAP_MEMORY, MemorySize.parse("448m"));
        c.set(JobManagerOptions.OFF_HEAP_MEMORY, MemorySize.parse("128m"));
        c.set(JobManagerOptions.JVM_METASPACE, MemorySize.parse("192m"));
        c.set(JobManagerOptions.JVM_OVERHEAD_MIN, MemorySize.parse("64m"));
        c.set(JobManagerOptions.JVM_OVERHEAD_MAX, MemorySize.parse("64m"));

        c.set(TaskManagerOptions.HOST, LOOPBACK);
        c.set(TaskManagerOptions.BIND_HOST, LOOPBACK);
        c.set(TaskManagerOptions.NUM_TASK_SLOTS, SLOTS);
        c.set(TaskManagerOptions.CPU_CORES, (double) SLOTS);
        // About 1 GiB per TaskManager: 320 MiB heap, 192 MiB direct, 160 MiB managed (RocksDB), 256 MiB metaspace
        // (user code: the Kafka connector and clients, flink-ivm), 64 MiB JVM overhead.
        c.set(TaskManagerOptions.FRAMEWORK_HEAP_MEMORY, MemorySize.parse("96m"));
        c.set(TaskManagerOptions.TASK_HEAP_MEMORY, MemorySize.parse("224m"));
        c.set(TaskManagerOptions.FRAMEWORK_OFF_HEAP_MEMORY, MemorySize.parse("96m"));
        c.set(TaskManagerOptions.TASK_OFF_HEAP_MEMORY, MemorySize.parse("32m"));
        c.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.parse("64m"));
        c.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.parse("64m"));
        c.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("160m"));
        c.set(TaskManagerOptions.JVM_METASPACE, MemorySize.parse("256m"));
        c.set(TaskManagerOptions.JVM_OVERHEAD_MIN, MemorySize.parse("64m"));
        c.set(TaskManagerOptions.JVM_OVERHEAD_MAX, MemorySize.parse("64m"));

        // A lost TaskManager is known after two failed heartbeat RPCs (heartbeat.rpc-failure-threshold), 1 s apart
        // here instead of 10 s: until then, each restart of a job is deployed to the dead TaskManager's slots and
        // fails at once, using up restart attempts. The timeout, for processes that are alive but do not answer,
        // stays generous for 2 busy cores.
        c.set(HeartbeatManagerOptions.HEARTBEAT_INTERVAL, Duration.ofSeconds(1));
        c.set(HeartbeatManagerOptions.HEARTBEAT_TIMEOUT, Duration.ofSeconds(20));

        c.set(RestOptions.ADDRESS, LOOPBACK);
        c.set(RestOptions.BIND_ADDRESS, LOOPBACK);
        c.set(RestOptions.PORT, ports.rest());
        c.set(RestOptions.BIND_PORT, Integer.toString(ports.rest()));
        // Checkpoint figures on the REST API (and in the web UI) at most half a second old.
        c.set(RestOptions.CACHE_CHECKPOINT_STATISTICS_TIMEOUT, Duration.ofMillis(500));
        c.set(WebOptions.UPLOAD_DIR, home.resolve("web-upload").toString());
        // Every checkpoint of a test's job on the REST API (Flink keeps the last 10 by default), and metrics on it
        // (and in the web UI) at most a second old (10 s by default).
        c.set(WebOptions.CHECKPOINTS_HISTORY_SIZE, 200);
        c.set(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL, Duration.ofSeconds(1));

        c.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
        RocksDbTuning.applyTo(c);
        c.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
        c.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, uri(home.resolve("checkpoints")));
        c.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, uri(home.resolve("savepoints")));

        c.set(CoreOptions.TMP_DIRS, home.resolve("tmp").toString());
        c.set(CoreOptions.FLINK_JVM_OPTIONS, JAVA_17_OPTIONS);
        c.set(CoreOptions.FLINK_LOG_DIR, home.resolve("log").toString());
        overrides.forEach(c::setString);
        return c;
    }

    /** Reads the configuration a cluster was started with. */
    public static Configuration read(Path confDir) {
        return GlobalConfiguration.loadConfiguration(confDir.toString());
    }

    /** Writes {@code config.yaml} and the Log4j configurations of the processes and the command line client. */
    public static void write(Configuration c, Path confDir) throws IOException {
        Files.createDirectories(confDir);
        List<String> lines = new ArrayList<>();
        lines.add("# Written by flink-ivm's local cluster (io.flinkivm.bench.cluster.ClusterConfiguration).");
        lines.addAll(ConfigurationUtils.convertConfigToWritableLines(c, true));
        Files.write(confDir.resolve(CONFIG_FILE), lines, StandardCharsets.UTF_8);
        Files.writeString(confDir.resolve(LOG4J_FILE), LOG4J, StandardCharsets.UTF_8);
        Files.writeString(confDir.resolve(LOG4J_CLI_FILE), LOG4J, StandardCharsets.UTF_8);
    }

    /**
     * The Log4j 2 configuration of every process and of the client, as in Flink's distribution: INFO to the file
     * that the system property {@code log.file} names (the web UI shows it).
     */
    private static final String LOG4J = String.join(
            "\n",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.main.ref = MainAppender",
            "logger.kafka.name = org.apache.kafka",
            "logger.kafka.level = WARN",
            "logger.zookeeper.name = org.apache.zookeeper",
            "logger.zookeeper.level = WARN",
            "logger.shaded_zookeeper.name = org.apache.flink.shaded.zookeeper3",
            "logger.shaded_zookeeper.level = WARN",
            "appender.main.name = MainAppender",
            "appender.main.type = File",
            "appender.main.append = true",
            "appender.main.fileName = ${sys:log.file}",
            "appender.main.layout.type = PatternLayout",
            "appender.main.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
            "");

    /** The JVM options of a JobManager: heap, direct memory and metaspace as configured, and the Java 17 options. */
    public static List<String> jobManagerJvmOptions(Configuration c) {
        List<String> out = new ArrayList<>();
        long heap = c.get(JobManagerOptions.JVM_HEAP_MEMORY).getMebiBytes();
        out.add("-Xmx" + heap + "m");
        out.add("-Xms" + heap + "m");
        out.add("-XX:MaxDirectMemorySize="
                + c.get(JobManagerOptions.OFF_HEAP_MEMORY).getMebiBytes() + "m");
        out.add("-XX:MaxMetaspaceSize=" + c.get(JobManagerOptions.JVM_METASPACE).getMebiBytes() + "m");
        out.addAll(javaOptions(c));
        return out;
    }

    /**
     * The JVM options of a TaskManager, as Flink's scripts derive them: heap = framework + task heap, direct
     * memory = framework + task off-heap + network, and the metaspace.
     */
    public static List<String> taskManagerJvmOptions(Configuration c) {
        List<String> out = new ArrayList<>();
        long heap = mib(c, TaskManagerOptions.FRAMEWORK_HEAP_MEMORY) + mib(c, TaskManagerOptions.TASK_HEAP_MEMORY);
        long direct = mib(c, TaskManagerOptions.FRAMEWORK_OFF_HEAP_MEMORY)
                + mib(c, TaskManagerOptions.TASK_OFF_HEAP_MEMORY)
                + mib(c, TaskManagerOptions.NETWORK_MEMORY_MAX);
        out.add("-Xmx" + heap + "m");
        out.add("-Xms" + heap + "m");
        out.add("-XX:MaxDirectMemorySize=" + direct + "m");
        out.add("-XX:MaxMetaspaceSize=" + mib(c, TaskManagerOptions.JVM_METASPACE) + "m");
        out.addAll(javaOptions(c));
        return out;
    }

    /** The JVM options of the command line client ({@code flink run ...}). */
    public static List<String> clientJvmOptions(Configuration c) {
        List<String> out = new ArrayList<>(List.of("-Xmx512m"));
        out.addAll(javaOptions(c));
        return out;
    }

    /** {@code env.java.opts.all}, split at blanks. */
    private static List<String> javaOptions(Configuration c) {
        String all = c.get(CoreOptions.FLINK_JVM_OPTIONS).trim();
        return all.isEmpty() ? List.of() : Arrays.asList(all.split("\\s+"));
    }

    private static long mib(Configuration c, ConfigOption<MemorySize> option) {
        return c.get(option).getMebiBytes();
    }

    /** The {@code rest.port} of {@code c}. */
    public static int restPort(Configuration c) {
        return c.get(RestOptions.PORT);
    }

    private static String uri(Path dir) {
        return dir.toAbsolutePath().normalize().toUri().toString();
    }
}
