package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The self-contained jar as a user starts it, {@code java -jar flink-ivm-examples.jar ...} (built in
 * {@code package}; failsafe runs this in {@code verify}): its logging binding leaves stdout to the command,
 * prints no SLF4J warning and, by default, nothing on stderr; {@code --log-level} turns Flink's logs up. It and the
 * cluster jar hold no class of flink-ivm-bench.
 */
class FatJarIT {

    private static Path jar;

    @TempDir
    Path dir;

    @BeforeAll
    static void find() {
        jar = Path.of(System.getProperty("flinkivm.fatJar"));
        assertThat(jar)
                .as("the self-contained jar (run 'mvn verify', which packages first)")
                .isRegularFile();
    }

    @Test
    void anExampleRunPrintsItsOutputAndNoLogs() throws Exception {
        Result r = javaJar("example", "ex10", "--inserts", "2000", "--parallelism", "1");

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("Plan: p-hierarchical", "Done: 2,000 inserts");
        assertThat(r.err()).as("stderr").isEmpty();
    }

    @Test
    void logLevelInfoShowsFlinksLogsOnStderrOnly() throws Exception {
        Result r = javaJar("example", "ex10", "--inserts", "2000", "--parallelism", "1", "--log-level", "info");

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains(" INFO ", "MiniCluster").doesNotContain("SLF4J");
        assertThat(r.out()).doesNotContain(" INFO ").contains("Done: 2,000 inserts");
    }

    @Test
    void theSystemPropertySetsTheLevelToo() throws Exception {
        Result r = java(
                List.of("-Dflinkivm.log.level=INFO"), "example", "ex10", "--inserts", "1000", "--parallelism", "1");

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).contains(" INFO ", "MiniCluster");
    }

    @Test
    void anUnknownLevelIsAUsageError() throws Exception {
        Result r = javaJar("explain", "--query", "Q(A) :- R(A,B)", "--log-level", "loud");

        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("unknown log level 'loud'", "off, fatal, error, warn, info, debug, trace, all");
    }

    /**
     * What users run holds nothing of what the project measures itself with (flink-ivm-bench's classes), and the SQL
     * front end ({@code run --sql}): flink-ivm-sql and the Calcite parser it brings.
     */
    @Test
    void theShippedJarsHoldTheSqlFrontEndAndNoBenchOrSoakClass() throws Exception {
        for (Path shipped : List.of(jar, Path.of(System.getProperty("flinkivm.clusterJar")))) {
            try (JarFile f = new JarFile(shipped.toFile())) {
                assertThat(Collections.list(f.entries()).stream().map(JarEntry::getName))
                        .as(shipped.toString())
                        .contains(
                                "io/flinkivm/examples/cli/Main.class",
                                "io/flinkivm/sql/FlinkIvmSql.class",
                                "io/flinkivm/sql/translate/SqlTranslation.class",
                                "org/apache/calcite/sql/parser/SqlParser.class",
                                "org/apache/calcite/avatica/util/Casing.class")
                        .noneMatch(e -> e.startsWith("io/flinkivm/")
                                && e.toLowerCase(Locale.ROOT).matches(".*(bench|soak).*"));
            }
        }
    }

    private record Result(int code, String out, String err) {}

    private Result javaJar(String... args) throws Exception {
        return java(List.of(), args);
    }

    /** Runs {@code java [jvmOptions] -jar <fat jar> args} in a new JVM. */
    private Result java(List<String> jvmOptions, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(List.of(args));
        Path out = dir.resolve("stdout.txt");
        Path err = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
