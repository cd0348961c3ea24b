package io.flinkivm.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.flink.FlinkJobLayout;
import java.io.File;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The web UI of the cluster (flink-runtime-web on the JobManager's classpath) while the kafka command's Ex. 10 job
 * runs at parallelism 4: the job graph the UI draws ({@code /jobs/:id/plan}, the vertices) names flink-ivm's
 * operators as {@link FlinkJobLayout} does (ingest, view trees, the Boolean join sink) and the Kafka sink; the
 * vertices carry flink-ivm's metrics; and headless Chromium renders the graph, with the operators' names, and
 * takes a screenshot ({@code target/web-ui-ex10.png}, or the file {@code -Dflinkivm.webUiScreenshot} names, e.g.
 * {@code docs/web-ui-ex10.png}). The screenshot is skipped where Chromium is not installed.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WebUiIT {

    @RegisterExtension
    static final LocalFlinkClusterExtension CLUSTER = LocalFlinkClusterExtension.shared();

    static final int PARALLELISM = 4;
    static final int INSERTS = 8_000;
    static final int SNAPSHOT_EVERY = 500;

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = new EmbeddedKafkaExtension();

    static Ex10OnKafka ex10;
    static ClusterJobs jobs;
    static String job;
    static FlinkJobLayout layout;

    @BeforeAll
    static void runTheJob() throws Exception {
        jobs = new ClusterJobs(CLUSTER.cluster().rest());
        ex10 = new Ex10OnKafka(KAFKA.kafka(), "web-ui", PARALLELISM, INSERTS, 19);
        LocalFlinkCluster.ClientRun run = CLUSTER.flink(
                ex10.flinkRun(List.of(), PARALLELISM, SNAPSHOT_EVERY).toArray(new String[0]));
        assertThat(run.exitCode()).as(run.output()).isZero();
        job = ClusterJobs.jobId(run);
        jobs.awaitAllTasksRunning(job, Duration.ofMinutes(2));
        ex10.produceAll(0, INSERTS);
        ex10.awaitSnapshot(INSERTS, Duration.ofMinutes(2));
        layout = FlinkJobLayout.of(
                Planner.plan(QueryParser.parse(Ex10Oracle.QUERY), NaturalSemiring.INSTANCE), PARALLELISM);
    }

    @AfterAll
    static void cancel() throws Exception {
        if (job != null && jobs.state(job).equals("RUNNING")) {
            jobs.cancel(job);
        }
    }

    @Test
    void theJobGraphNamesTheViewOperatorsAndTheSink() throws Exception {
        List<String> vertices = new ArrayList<>();
        for (JsonNode v : CLUSTER.cluster().rest().get("/jobs/" + job).path("vertices")) {
            vertices.add(v.path("name").asText());
        }
        StringBuilder plan = new StringBuilder();
        for (JsonNode n : CLUSTER.cluster()
                .rest()
                .get("/jobs/" + job + "/plan")
                .path("plan")
                .path("nodes")) {
            plan.append(n.path("description").asText()).append('\n');
        }
        List<String> names = new ArrayList<>();
        layout.operators().forEach(o -> names.add(o.name()));
        names.add("kafka " + ex10.output());
        assertThat(names).contains("tree 0 V[A] (views V[A,B], V[A,B,D])", "Boolean join + payload recovery (sink)");
        for (String name : names) {
            assertThat(vertices).as("vertex names").anyMatch(v -> v.contains(name));
            assertThat(plan.toString()).as("the plan the web UI draws").contains(name);
        }
    }

    @Test
    void theVerticesCarryFlinkIvmsMetrics() throws Exception {
        // The REST API serves the metrics it fetched last and fetches anew in the background: ask until the ingest's
        // count has reached every insert (the job has processed them all: the last snapshot is out).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Map<String, Long> sums = ivmMetricSums();
        while (sums.getOrDefault("ivmInserts", 0L) < INSERTS && System.nanoTime() < deadline) {
            Thread.sleep(500);
            sums = ivmMetricSums();
        }
        assertThat(sums)
                .containsKeys(
                        "ivmInserts",
                        "ivmEpochs",
                        "ivmDeltasIn",
                        "ivmDeltasPropagated",
                        "ivmBorderCrossings",
                        "ivmSnapshots",
                        "ivmBooleanJoinLiveTuples");
        assertThat(sums.get("ivmInserts")).as("inserts the ingest accepted").isEqualTo(INSERTS);
        assertThat(sums.get("ivmDeltasIn")).as("deltas into the view tree").isPositive();
        assertThat(sums.get("ivmSnapshots"))
                .as("snapshots, an end marker per sink subtask")
                .isEqualTo((long) layout.sink().parallelism() * INSERTS / (SNAPSHOT_EVERY * PARALLELISM));
        assertThat(sums.get("ivmBooleanJoinLiveTuples")).isPositive();
    }

    /** flink-ivm's operator metrics ({@code ivm...}) summed over the subtasks of every vertex, by metric name. */
    private static Map<String, Long> ivmMetricSums() throws Exception {
        Map<String, Long> sums = new HashMap<>();
        for (JsonNode v : CLUSTER.cluster().rest().get("/jobs/" + job).path("vertices")) {
            String base = "/jobs/" + job + "/vertices/" + v.path("id").asText() + "/subtasks/metrics";
            List<String> ivm = new ArrayList<>();
            for (JsonNode m : CLUSTER.cluster().rest().get(base)) {
                String id = m.path("id").asText();
                if (id.contains(".ivm") && id.indexOf('.') == id.lastIndexOf('.')) {
                    ivm.add(id);
                }
            }
            if (ivm.isEmpty()) {
                continue;
            }
            String get = URLEncoder.encode(String.join(",", ivm), StandardCharsets.UTF_8);
            for (JsonNode m : CLUSTER.cluster().rest().get(base + "?agg=sum&get=" + get)) {
                String id = m.path("id").asText();
                sums.merge(
                        id.substring(id.indexOf('.') + 1), (long) m.path("sum").asDouble(), Long::sum);
            }
        }
        return sums;
    }

    /** The running job's graph in the web UI, in headless Chromium: rendered with the operators' names, and a picture. */
    @Test
    void aScreenshotOfTheRunningJobsGraph() throws Exception {
        Optional<Path> chromium = chromium();
        Assumptions.assumeTrue(
                chromium.isPresent(),
                "no chromium on the PATH (Debian: apt-get install chromium): the web UI screenshot is skipped");
        Path dir = CLUSTER.cluster().home().resolve("chromium");
        Files.createDirectories(dir);
        Path screenshot = Path.of(System.getProperty("flinkivm.webUiScreenshot", "target/web-ui-ex10.png"))
                .toAbsolutePath();
        Files.createDirectories(screenshot.getParent());
        Files.deleteIfExists(screenshot);
        String url = CLUSTER.cluster().rest().base() + "/#/job/running/" + job + "/overview";
        Path dom = dir.resolve("dom.html");
        run(chromium(chromium.get(), dir, "dom", "--dump-dom", url).redirectOutput(dom.toFile()));
        run(chromium(chromium.get(), dir, "screenshot", "--screenshot=" + screenshot, url));
        String page = Files.readString(dom);
        for (FlinkJobLayout.Operator o : layout.operators()) {
            assertThat(page).as("the web UI's job page").contains(o.name());
        }
        byte[] png = Files.readAllBytes(screenshot);
        assertThat(png.length).as("bytes of " + screenshot).isGreaterThan(20_000);
        assertThat(new String(png, 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");
        System.out.println("WebUiIT: the web UI's graph of job " + job + " is in " + screenshot);
    }

    /**
     * Headless Chromium: no sandbox (tests may run as root), no GPU, no network but the cluster's, a fresh profile
     * ({@code dir/NAME-profile}, its stderr in {@code dir/NAME.err}); 20 s of virtual time for the web UI to fetch
     * and draw, and a stop after 45 s of real time in case virtual time stalls (it did, on 2 busy cores).
     */
    private static ProcessBuilder chromium(Path chromium, Path dir, String name, String action, String url) {
        return new ProcessBuilder(
                        chromium.toString(),
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-quic",
                        "--no-first-run",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                        "--user-data-dir=" + dir.resolve(name + "-profile"),
                        "--window-size=1600,1000",
                        "--virtual-time-budget=20000",
                        "--timeout=45000",
                        action,
                        url)
                .redirectError(dir.resolve(name + ".err").toFile());
    }

    /** Runs Chromium to its end, with its stdin closed; once more if it hangs anyway. */
    private static void run(ProcessBuilder chromium) throws Exception {
        for (int attempt = 1; ; attempt++) {
            Process p = chromium.start();
            p.getOutputStream().close();
            boolean done = p.waitFor(2, TimeUnit.MINUTES);
            if (!done) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly().waitFor();
            }
            if (done || attempt == 2) {
                assertThat(done)
                        .as("chromium ended within 2 minutes: %s", chromium.command())
                        .isTrue();
                assertThat(p.exitValue()).as("chromium's exit code").isZero();
                return;
            }
        }
    }

    private static Optional<Path> chromium() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Optional<Path> found = Stream.of("chromium", "chromium-browser")
                    .map(name -> Path.of(dir, name))
                    .filter(Files::isExecutable)
                    .findFirst();
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }
}
