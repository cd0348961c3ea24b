package io.flinkivm.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterClasspathTest {

    /** The pom whose cluster execution builds the cluster jar; surefire runs in this module's directory. */
    static final Path POM = Path.of("../flink-ivm-examples/pom.xml");

    @TempDir
    Path dir;

    @Test
    void theClusterProvidesWhatTheClusterJarLeavesOut() throws IOException {
        List<ClusterClasspath.Artifact> provided = ClusterClasspath.providedByTheCluster(POM);

        assertThat(matches(provided, "org/apache/flink/flink-runtime/2.2.1/flink-runtime-2.2.1.jar"))
                .isTrue();
        assertThat(matches(provided, "org/apache/flink/flink-runtime-web/2.2.1/flink-runtime-web-2.2.1.jar"))
                .isTrue();
        assertThat(matches(provided, "org/apache/flink/flink-rpc-akka-loader/2.2.1/flink-rpc-akka-loader-2.2.1.jar"))
                .as("a glob: flink-rpc-*")
                .isTrue();
        assertThat(matches(provided, "org/apache/logging/log4j/log4j-core/2.24.3/log4j-core-2.24.3.jar"))
                .isTrue();
        assertThat(matches(provided, "info/picocli/picocli/4.7.7/picocli-4.7.7.jar"))
                .as("in the cluster jar")
                .isFalse();
        assertThat(matches(
                        provided,
                        "org/apache/flink/flink-connector-kafka/5.0.0-2.2/flink-connector-kafka-5.0.0-2.2.jar"))
                .as("a connector: in the cluster jar")
                .isFalse();
        assertThat(matches(provided, "org/apache/flink/flink-runtime-extra/1/flink-runtime-extra-1.jar"))
                .as("flink-runtime is not a glob")
                .isFalse();
    }

    @Test
    void selectsTheClustersJarsFromTheBuildsClasspathInOrder() throws IOException {
        Path repo = dir.resolve("repository");
        String cp = String.join(
                ":",
                repo.resolve("info/picocli/picocli/4.7.7/picocli-4.7.7.jar").toString(),
                repo.resolve("org/apache/flink/flink-runtime/2.2.1/flink-runtime-2.2.1.jar")
                        .toString(),
                repo.resolve("org/apache/flink/flink-core/2.2.1/flink-core-2.2.1.jar")
                        .toString(),
                dir.resolve("classes").toString());
        Path file = Files.writeString(dir.resolve("classpath.txt"), cp + "\n");

        assertThat(ClusterClasspath.of(file, POM))
                .extracting(p -> p.getFileName().toString())
                .containsExactly("flink-runtime-2.2.1.jar", "flink-core-2.2.1.jar");
    }

    @Test
    void saysToBuildFirst() {
        assertThatThrownBy(() -> ClusterClasspath.of(dir.resolve("missing.txt"), POM))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("build first ('mvn -B -q package -DskipTests' writes it)");
    }

    private static boolean matches(List<ClusterClasspath.Artifact> provided, String jar) {
        Path p = Path.of("/repository").resolve(jar);
        return provided.stream().anyMatch(a -> a.matches(p));
    }
}
