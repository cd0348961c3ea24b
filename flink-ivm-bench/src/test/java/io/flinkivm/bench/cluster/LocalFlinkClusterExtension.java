package io.flinkivm.bench.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link LocalFlinkCluster} for a test class: a JobManager and two TaskManagers as separate JVMs on 127.0.0.1,
 * from the jars the build resolved, in {@code target/local-clusters/NAME}. {@link #shared()} is one cluster for
 * every test class that asks for it, stopped when the test run ends; {@link #dedicated} is a cluster of the class's
 * own (for tests that kill its processes or need another configuration), stopped after the class. Either way the
 * cluster is stopped also when a test fails, and by a shutdown hook if the JVM ends first; before the first
 * cluster starts, the processes of clusters whose test JVM was killed are killed ({@link
 * LocalFlinkCluster#killLeftovers}).
 *
 * <pre>{@code
 * @RegisterExtension
 * static final LocalFlinkClusterExtension CLUSTER = LocalFlinkClusterExtension.shared();
 * ...
 * ClientRun r = CLUSTER.flink("run", "-c", Main.class.getName(), CLUSTER.clusterJar().toString(), "example");
 * }</pre>
 */
public final class LocalFlinkClusterExtension implements BeforeAllCallback, AfterAllCallback {

    /** TaskManagers of each cluster. */
    public static final int TASK_MANAGERS = 2;
    /** How long one run of the command line client may take. */
    public static final Duration CLIENT_TIMEOUT = Duration.ofMinutes(3);

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(LocalFlinkClusterExtension.class);
    private static final String SHARED = "shared";
    private static boolean leftoversKilled;

    private final String name;
    private final Map<String, String> overrides;
    private LocalFlinkCluster cluster;

    private LocalFlinkClusterExtension(String name, Map<String, String> overrides) {
        this.name = name;
        this.overrides = Map.copyOf(overrides);
    }

    /** The cluster that test classes share. */
    public static LocalFlinkClusterExtension shared() {
        return new LocalFlinkClusterExtension(SHARED, Map.of());
    }

    /** A cluster of one test class, with {@code overrides} on top of {@link ClusterConfiguration}. */
    public static LocalFlinkClusterExtension dedicated(String name, Map<String, String> overrides) {
        if (name.equals(SHARED)) {
            throw new IllegalArgumentException("'" + SHARED + "' is the shared cluster's name");
        }
        return new LocalFlinkClusterExtension(name, overrides);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        killLeftovers();
        if (name.equals(SHARED)) {
            cluster = context.getRoot()
                    .getStore(NAMESPACE)
                    .getOrComputeIfAbsent(SHARED, k -> new Handle(start(SHARED, Map.of())), Handle.class)
                    .cluster;
            // A class before may have killed a process or left a job running (a failed test): give the next one the
            // cluster it expects.
            while (cluster.taskManagers().size() < TASK_MANAGERS) {
                cluster.startTaskManager();
            }
            cluster.awaitTaskManagers(TASK_MANAGERS, Duration.ofMinutes(2));
            cancelUnfinishedJobs(cluster);
        } else {
            cluster = start(name, overrides);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (!name.equals(SHARED) && cluster != null) {
            cluster.close();
        }
    }

    /** The running cluster (after {@code @BeforeAll}). */
    public LocalFlinkCluster cluster() {
        if (cluster == null) {
            throw new IllegalStateException("the cluster starts before all tests of the class; register the"
                    + " extension on a static field with @RegisterExtension");
        }
        return cluster;
    }

    /** The jar for {@code flink run} that the build just made. */
    public static Path clusterJar() {
        return Path.of(property("flinkivm.clusterJar"));
    }

    /** Runs Flink's command line client against the cluster ({@code flink ARGS}). */
    public LocalFlinkCluster.ClientRun flink(String... args) throws IOException, InterruptedException {
        return cluster().flink(CLIENT_TIMEOUT, Arrays.asList(args));
    }

    /** Cancels the jobs that have not ended and waits until every slot is free again. */
    private static void cancelUnfinishedJobs(LocalFlinkCluster cluster) throws IOException, InterruptedException {
        for (JsonNode job : cluster.rest().get("/jobs/overview").path("jobs")) {
            if (!Set.of("FINISHED", "CANCELED", "FAILED")
                    .contains(job.path("state").asText())) {
                cluster.rest().patch("/jobs/" + job.path("jid").asText() + "?mode=cancel");
            }
        }
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (true) {
            JsonNode overview = cluster.rest().get("/overview");
            if (overview.path("slots-available").asInt()
                    == overview.path("slots-total").asInt()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "the shared cluster's slots are not free a minute after cancelling" + " its jobs: " + overview);
            }
            Thread.sleep(200);
        }
    }

    private static synchronized void killLeftovers() throws IOException {
        if (!leftoversKilled) {
            leftoversKilled = true;
            int killed = LocalFlinkCluster.killLeftovers(parent());
            if (killed > 0) {
                System.err.println("killed " + killed + " processes of local clusters whose test JVM had died");
            }
        }
    }

    private static LocalFlinkCluster start(String name, Map<String, String> overrides) {
        try {
            Path home = parent().resolve(name);
            deleteRecursively(home);
            List<Path> classpath = ClusterClasspath.of(
                    Path.of(property("flinkivm.clusterClasspath")), Path.of(property("flinkivm.examplesPom")));
            return LocalFlinkCluster.start(
                    home, classpath, TASK_MANAGERS, overrides, LocalFlinkCluster.Lifetime.WITH_THIS_JVM);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start the local cluster '" + name + "': " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting the local cluster '" + name + "'", e);
        }
    }

    private static Path parent() {
        return Path.of(property("flinkivm.localClusters"));
    }

    private static String property(String key) {
        String value = System.getProperty(key);
        if (value == null) {
            throw new IllegalStateException("system property " + key + " is not set: run the test through Maven"
                    + " (mvn -B verify, failsafe sets it; see flink-ivm-bench/pom.xml)");
        }
        return value;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    /** The shared cluster in the root context's store: closed when the test run ends. */
    private record Handle(LocalFlinkCluster cluster) implements ExtensionContext.Store.CloseableResource {
        @Override
        public void close() {
            cluster.close();
        }
    }
}
