package io.flinkivm.bench.cluster;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Flink's SQL Gateway ({@value #MAIN_CLASS}, artifact {@code flink-sql-gateway}) as a JVM of its own beside a
 * {@link LocalFlinkCluster}, as Flink's {@code bin/sql-gateway.sh start} runs it: the cluster's jars (a
 * distribution's {@code lib/}) and the gateway's, the cluster's configuration, {@code execution.target: remote},
 * and its REST endpoint on 127.0.0.1. The SQL Client runs this same service in its own JVM (embedded mode) or
 * talks to it (gateway mode). Relative paths of {@code ADD JAR} resolve against {@code workDir}, where a user
 * would start the client. Its pid file lies with the cluster's, so that a killed test JVM's gateway is ended
 * with the cluster's leftovers ({@link LocalFlinkCluster#killLeftovers}).
 */
final class LocalSqlGateway implements AutoCloseable {

    static final String MAIN_CLASS = "org.apache.flink.table.gateway.SqlGateway";
    private static final String NAME = "sql-gateway";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

    private final Process process;
    private final URI rest;
    private final Path log;
    private final Path pidFile;
    private final Thread shutdownHook;

    private LocalSqlGateway(Process process, URI rest, Path log, Path pidFile) {
        this.process = process;
        this.rest = rest;
        this.log = log;
        this.pidFile = pidFile;
        this.shutdownHook = new Thread(this::stop, "stop the SQL Gateway");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts a gateway for {@code cluster} with the jar {@code gatewayJar} on top of the cluster's classpath and
     * returns once its REST endpoint answers.
     *
     * @throws IllegalStateException if the process ends or does not answer in time (the message holds its log's end)
     */
    static LocalSqlGateway start(LocalFlinkCluster cluster, Path gatewayJar, Path workDir)
            throws IOException, InterruptedException {
        int port = LocalFlinkCluster.freePort();
        Path logs = cluster.home().resolve("log");
        Path log = logs.resolve(NAME + ".log");
        Path out = logs.resolve(NAME + ".out");
        List<String> classpath = new ArrayList<>();
        cluster.classpath().forEach(p -> classpath.add(p.toString()));
        classpath.add(gatewayJar.toString());
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ClusterConfiguration.clientJvmOptions(cluster.configuration()));
        command.add("-D" + LocalFlinkCluster.HOME_PROPERTY + "=" + cluster.home());
        command.add("-Dlog.file=" + log);
        command.add("-Dlog4j.configurationFile="
                + cluster.configDirectory()
                        .resolve(ClusterConfiguration.LOG4J_FILE)
                        .toUri());
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classpath));
        command.add(MAIN_CLASS);
        for (String option : List.of(
                "sql-gateway.endpoint.rest.address=127.0.0.1",
                "sql-gateway.endpoint.rest.bind-address=127.0.0.1",
                "sql-gateway.endpoint.rest.port=" + port,
                "sql-gateway.endpoint.rest.bind-port=" + port,
                "execution.target=remote")) {
            command.add("-D" + option);
        }
        Files.createDirectories(workDir);
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()));
        pb.environment().put("FLINK_CONF_DIR", cluster.configDirectory().toString());
        Process process = pb.start();
        process.getOutputStream().close();
        Path pidFile = cluster.home().resolve("pids").resolve(NAME + ".pid");
        Files.writeString(pidFile, Long.toString(process.pid()), StandardCharsets.UTF_8);
        LocalSqlGateway gateway = new LocalSqlGateway(process, URI.create("http://127.0.0.1:" + port), log, pidFile);
        try {
            gateway.awaitReady();
        } catch (IOException | RuntimeException | InterruptedException e) {
            gateway.close();
            throw e;
        }
        return gateway;
    }

    /** The REST endpoint, e.g. {@code http://127.0.0.1:18083}. */
    URI rest() {
        return rest;
    }

    Path log() {
        return log;
    }

    private void awaitReady() throws IOException, InterruptedException {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the SQL Gateway exited with " + process.exitValue() + tail());
            }
            try {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(rest.resolve("/v1/info")).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // Still starting.
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the SQL Gateway did not answer within " + START_TIMEOUT + tail());
            }
            Thread.sleep(200);
        }
    }

    private String tail() throws IOException {
        if (!Files.exists(log)) {
            return "";
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return "; end of " + log + ":\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // The hook runs (or ran) stop itself.
        }
    }

    private void stop() {
        process.destroy();
        try {
            if (!process.waitFor(LocalFlinkCluster.STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
            Files.deleteIfExists(pidFile);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // The pid file stays; killLeftovers checks the process's command line before it kills.
        }
    }
}
