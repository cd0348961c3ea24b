package io.flinkivm.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.cli.Main;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code scripts/local-cluster.sh}, as a user runs it after the README's build command: {@code start} returns once
 * the cluster accepts jobs and prints {@code rest: http://127.0.0.1:<port>}, {@code status} prints it too,
 * {@code flink run} runs the cluster jar's example there, {@code stop} ends every process {@code start} began.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class LocalClusterScriptIT {
    private static final Pattern REST = Pattern.compile("(?m)^rest: (http://127\\.0\\.0\\.1:\\d+)$");

    private final Path root =
            Path.of(System.getProperty("flinkivm.root")).toAbsolutePath().normalize();
    private final Path home =
            Path.of(System.getProperty("flinkivm.localClusters")).resolve("script");

    @AfterEach
    void stop() throws Exception {
        script("stop");
    }

    @Test
    void startStatusFlinkRunStop() throws Exception {
        Result start = script("start");
        assertThat(start.code()).as(start.output()).isZero();
        // If this JVM is killed before stop, the next cluster test kills the script's cluster too.
        Files.writeString(
                home.resolve("owner.pid"), Long.toString(ProcessHandle.current().pid()));
        Matcher rest = REST.matcher(start.output());
        assertThat(rest.find()).as(start.output()).isTrue();
        LocalFlinkCluster cluster = LocalFlinkCluster.attach(home).orElseThrow();
        List<LocalFlinkCluster.ClusterProcess> processes = cluster.processes();
        assertThat(processes)
                .extracting(LocalFlinkCluster.ClusterProcess::name)
                .containsExactly("jobmanager", "taskmanager-1", "taskmanager-2");
        assertThat(cluster.rest().get("/overview").path("taskmanagers").asInt()).isEqualTo(2);

        Result status = script("status");
        assertThat(status.code()).as(status.output()).isZero();
        assertThat(status.output()).contains("rest: " + rest.group(1));

        Result run = script(
                "flink",
                "run",
                "-c",
                Main.class.getName(),
                LocalFlinkClusterExtension.clusterJar().toString(),
                "example",
                "ex10",
                "--inserts",
                "2000",
                "--parallelism",
                "2");
        assertThat(run.code()).as(run.output()).isZero();
        assertThat(run.output()).contains("Job has been submitted with JobID", "Done: 2,000 inserts");

        Result stop = script("stop");
        assertThat(stop.code()).as(stop.output()).isZero();
        assertThat(stop.output()).contains("stopped 3 processes");
        assertThat(processes).noneMatch(LocalFlinkCluster.ClusterProcess::isAlive);
        Result after = script("status");
        assertThat(after.code()).isEqualTo(1);
        assertThat(after.output()).contains("no local cluster running in " + home);
    }

    private record Result(int code, String output) {}

    private Result script(String... args) throws IOException, InterruptedException {
        List<String> command =
                new ArrayList<>(List.of(root.resolve("scripts/local-cluster.sh").toString()));
        command.addAll(List.of(args));
        Path log = Files.createTempFile("local-cluster", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(root.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            pb.environment().put("LOCAL_CLUSTER_HOME", home.toString());
            Process p = pb.start();
            p.getOutputStream().close();
            if (!p.waitFor(3, TimeUnit.MINUTES)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError("local-cluster.sh " + String.join(" ", args) + " did not end in 3 minutes");
            }
            return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
