package io.flinkivm.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.cli.Main;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar for {@code flink run} (built in {@code package}; failsafe runs this in {@code verify}): it holds
 * flink-ivm and the connectors but none of Flink's own classes and no logging binding or configuration
 * (logging is the cluster's), and its main class runs with Flink's
 * classes from outside: the jars the pom's cluster execution excludes ({@link ClusterClasspath}, the local
 * cluster's classpath), which is what the jar expects the cluster to provide.
 */
class ClusterJarIT {

    private static Path jar;
    private static List<String> entries;

    @TempDir
    Path dir;

    @BeforeAll
    static void open() throws IOException {
        jar = Path.of(System.getProperty("flinkivm.clusterJar"));
        assertThat(jar)
                .as("the cluster jar (run 'mvn verify', which packages first)")
                .isRegularFile();
        try (JarFile f = new JarFile(jar.toFile())) {
            entries =
                    Collections.list(f.entries()).stream().map(e -> e.getName()).toList();
        }
    }

    @Test
    void holdsFlinkIvmAndTheConnectorsButNotFlink() throws IOException {
        assertThat(entries)
                .contains(
                        "io/flinkivm/examples/cli/Main.class",
                        "io/flinkivm/examples/jobs/ExampleRunner.class",
                        "io/flinkivm/flink/FlinkIvm.class",
                        "io/flinkivm/core/plan/Planner.class",
                        "picocli/CommandLine.class",
                        "org/apache/flink/connector/kafka/source/KafkaSource.class",
                        "org/apache/kafka/clients/consumer/KafkaConsumer.class");
        assertThat(entries)
                .noneMatch(e -> e.startsWith("org/apache/flink/runtime/")
                        || e.startsWith("org/apache/flink/streaming/runtime/")
                        || e.startsWith("org/apache/flink/api/common/")
                        || e.startsWith("org/apache/flink/streaming/api/")
                        || e.startsWith("org/apache/flink/configuration/")
                        || e.startsWith("org/apache/flink/table/")
                        || e.startsWith("org/apache/flink/state/")
                        || e.startsWith("org/rocksdb/")
                        || e.startsWith("com/esotericsoftware/")
                        || e.startsWith("org/slf4j/")
                        || e.startsWith("org/apache/logging/")
                        || e.equals("log4j2.properties"));
        // What is left of org.apache.flink belongs to the connectors.
        assertThat(entries)
                .filteredOn(e -> e.startsWith("org/apache/flink/") && e.endsWith(".class"))
                .allMatch(e -> e.startsWith("org/apache/flink/connector/kafka/")
                        || e.startsWith("org/apache/flink/streaming/connectors/kafka/")
                        || e.startsWith("org/apache/flink/streaming/util/serialization/")
                        || e.startsWith("org/apache/flink/connector/base/"));
        try (JarFile f = new JarFile(jar.toFile())) {
            assertThat(f.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo(Main.class.getName());
        }
        Path selfContained = jar.resolveSibling("flink-ivm-examples.jar");
        if (Files.exists(selfContained)) {
            assertThat(Files.size(jar)).isLessThan(Files.size(selfContained) / 2);
        }
    }

    @Test
    void mainStartsWithTheClusterClasspath() throws Exception {
        Result r = java(Main.class.getName(), "--help");

        assertThat(r.code()).as(r.output()).isZero();
        assertThat(r.output()).contains("Usage: flink-ivm", "run", "example");
    }

    @Test
    void runsAJobWithTheClusterClasspath() throws Exception {
        Path in = Files.writeString(dir.resolve("in.csv"), "R,a,b,2\nR,a,c,1\nS,a,5\nS,d,1\n", StandardCharsets.UTF_8);
        Path out = dir.resolve("out.csv");

        Result r = java(
                Main.class.getName(),
                "run",
                "--query",
                "Q(A) :- R(A,B), S(A)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                out.toString(),
                "--parallelism",
                "1",
                "--state",
                "rocksdb");

        assertThat(r.code()).as(r.output()).isZero();
        assertThat(r.output()).contains("inserts: 4, rejected: 0");
        assertThat(Files.readAllLines(out)).containsExactly("A,payload", "a,15");
    }

    private record Result(int code, String output) {}

    /** Runs {@code main} in a new JVM on the cluster jar plus what the cluster provides. */
    private Result java(String main, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                jar + File.pathSeparator + String.join(File.pathSeparator, providedByTheCluster()),
                main));
        command.addAll(List.of(args));
        Path log = dir.resolve("process.log");
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        return new Result(p.exitValue(), Files.readString(log));
    }

    /** What the cluster provides: the jars the cluster execution in the pom leaves out, as the local cluster runs. */
    private static List<String> providedByTheCluster() throws IOException {
        List<String> out = new ArrayList<>();
        for (Path p : ClusterClasspath.of(
                Path.of(System.getProperty("flinkivm.clusterClasspath")),
                Path.of(System.getProperty("flinkivm.examplesPom")))) {
            out.add(p.toString());
        }
        assertThat(out).as("Flink jars on the cluster's classpath").anyMatch(e -> e.contains("flink-runtime"));
        return out;
    }
}
