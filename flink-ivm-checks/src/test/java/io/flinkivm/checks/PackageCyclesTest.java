package io.flinkivm.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No cycle between the packages of any module's main sources, whether through imports or fully qualified names.
 * Surefire runs in this module's directory, so the other modules are its siblings.
 */
class PackageCyclesTest {

    @ParameterizedTest
    @ValueSource(
            strings = {"flink-ivm-core", "flink-ivm-operators", "flink-ivm-sql", "flink-ivm-examples", "flink-ivm-bench"
            })
    void noPackageCycle(String module) throws IOException {
        PackageGraph graph = PackageGraph.of(Path.of("..", module, "src", "main", "java"));

        assertThat(graph.cycles())
                .as("package cycles of %s (each with the packages it joins)", module)
                .isEmpty();
    }

    @Test
    void aCycleThroughAFullyQualifiedNameCounts() {
        PackageGraph graph = PackageGraph.ofSources(
                "package io.flinkivm.cli;\nclass Main { Object c = new io.flinkivm.kafka.KafkaCommand(); }",
                "package io.flinkivm.kafka;\nimport io.flinkivm.cli.Csv;\nclass KafkaCommand {}");

        assertThat(graph.uses("io.flinkivm.cli")).containsExactly("io.flinkivm.kafka");
        assertThat(graph.cycles()).containsExactly(Set.of("io.flinkivm.cli", "io.flinkivm.kafka"));
    }

    @Test
    void commentsAndStringsAreNoDependency() {
        PackageGraph graph = PackageGraph.ofSources(
                "package io.flinkivm.cli;\n/** See {@link io.flinkivm.kafka.KafkaCommand}. */\nclass Main {\n"
                        + "  // io.flinkivm.kafka.KafkaCommand\n  String s = \"io.flinkivm.kafka.KafkaCommand\";\n"
                        + "  char q = '\"'; String t = \"\"\"\n    io.flinkivm.kafka.X\n    \"\"\";\n}",
                "package io.flinkivm.kafka;\nimport static io.flinkivm.cli.Main.run;\nclass KafkaCommand {}");

        assertThat(graph.uses("io.flinkivm.cli")).isEmpty();
        assertThat(graph.uses("io.flinkivm.kafka")).containsExactly("io.flinkivm.cli");
        assertThat(graph.cycles()).isEmpty();
    }

    @Test
    void aPackageOutsideTheTreeIsNoEdge() {
        PackageGraph graph =
                PackageGraph.ofSources("package io.flinkivm.bench;\nimport io.flinkivm.examples.cli.Main;\nclass B {}");

        assertThat(graph.uses("io.flinkivm.bench")).isEmpty();
    }
}
