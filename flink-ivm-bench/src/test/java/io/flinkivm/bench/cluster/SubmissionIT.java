package io.flinkivm.bench.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.examples.cli.Main;
import io.flinkivm.examples.report.JobReport;
import io.flinkivm.examples.report.ResultChecksum;
import io.flinkivm.examples.testing.CliRun;
import io.flinkivm.flink.types.InputRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cluster jar submitted as a user submits it, to a standalone cluster of separate JVMs: with Flink's command
 * line client ({@code flink run}, attached), and through the REST API as the web UI's "Submit New Job" does
 * ({@code /jars/upload}, {@code /jars/:id/run}: {@code main} runs inside the JobManager, detached). Results equal
 * the in-memory engine's; a detached job reports itself (its accumulators, its result files).
 */
@Timeout(value = 6, unit = java.util.concurrent.TimeUnit.MINUTES)
class SubmissionIT {

    @RegisterExtension
    static final LocalFlinkClusterExtension CLUSTER = LocalFlinkClusterExtension.shared();

    static final int INSERTS = 20_000;
    static final String MAIN = Main.class.getName();

    static Map<Tuple, String> expected;
    static ClusterJobs jobs;

    @BeforeAll
    static void oracle() {
        expected = Ex10Oracle.result(Ex10Oracle.inserts(INSERTS, 1));
        jobs = new ClusterJobs(CLUSTER.cluster().rest());
    }

    @Test
    void theClusterIsSeparateJvmsOnTheLoopbackOnly() throws IOException {
        LocalFlinkCluster c = CLUSTER.cluster();
        assertThat(c.jobManager()).isPresent();
        assertThat(c.taskManagers()).hasSize(LocalFlinkClusterExtension.TASK_MANAGERS);
        List<Long> pids = c.processes().stream()
                .map(LocalFlinkCluster.ClusterProcess::pid)
                .toList();
        assertThat(pids)
                .doesNotHaveDuplicates()
                .doesNotContain(ProcessHandle.current().pid());
        assertThat(c.rest().get("/overview").path("slots-total").asInt())
                .isEqualTo(LocalFlinkClusterExtension.TASK_MANAGERS * ClusterConfiguration.SLOTS);
        Map<Long, List<String>> listening = ListeningSockets.of(pids);
        assertThat(listening.values())
                .allSatisfy(addresses ->
                        assertThat(addresses).isNotEmpty().allMatch(a -> a.startsWith("127.0.0.1:"), "on 127.0.0.1"));
    }

    /** {@code flink run ... example ex10}: the client collects the result and prints it; with --result-dir the job also writes it. */
    @Test
    void theCommandLineClientRunsTheExample() throws Exception {
        Path dir = CLUSTER.cluster().home().resolve("cli-example");
        LocalFlinkCluster.ClientRun run = CLUSTER.flink(
                "run",
                "-c",
                MAIN,
                LocalFlinkClusterExtension.clusterJar().toString(),
                "example",
                "ex10",
                "--inserts",
                Integer.toString(INSERTS),
                "--parallelism",
                "2",
                "--result-dir",
                dir.toString());

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output())
                .contains("Job has been submitted with JobID")
                .contains(String.format("Done: %,d inserts", INSERTS))
                .contains(String.format("result: %,d tuples", expected.size()));
        assertThat(ClusterJobs.partFileLines(dir.resolve(JobReport.RESULT_DIRECTORY)))
                .containsExactlyInAnyOrderElementsOf(Ex10Oracle.lines(expected));
        Map<String, String> acc = jobs.accumulators(ClusterJobs.jobId(run));
        assertThat(acc).containsEntry(JobReport.SNAPSHOT, Integer.toString(INSERTS));
    }

    /** {@code flink run ... run --input --output}: the client reads the file, the cluster maintains, the client writes. */
    @Test
    void theCommandLineClientRunsTheRunCommand() throws Exception {
        Path dir = CLUSTER.cluster().home().resolve("cli-run");
        Files.createDirectories(dir);
        Path in = input(dir, 5_000);
        Path memory = dir.resolve("memory.csv");
        CliRun reference = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--query",
                Ex10Oracle.QUERY,
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                memory.toString());
        assertThat(reference.exitCode()).as(reference.err()).isZero();
        Path out = dir.resolve("cluster.csv");

        List<String> args = new ArrayList<>(List.of(
                "run", "-c", MAIN, LocalFlinkClusterExtension.clusterJar().toString()));
        args.addAll(runCommand(
                in,
                "--output",
                out.toString(),
                "--dead-letter",
                dir.resolve("rejected.csv").toString(),
                "--parallelism",
                "2",
                "--state",
                "rocksdb"));
        LocalFlinkCluster.ClientRun run = CLUSTER.flink(args.toArray(new String[0]));

        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.output()).contains("inserts: 5000, rejected: 2");
        assertThat(Files.readAllLines(out)).containsExactlyInAnyOrderElementsOf(Files.readAllLines(memory));
        assertThat(Files.readAllLines(out)).hasSizeGreaterThan(100);
        assertThat(Files.readAllLines(dir.resolve("rejected.csv"))).hasSize(2);
    }

    /**
     * The web UI's way: upload the jar, run {@code example ex10 --inserts 20000 --parallelism 2}. {@code main}
     * runs in the JobManager, detached: the job reaches FINISHED and reports the in-memory engine's row count and
     * checksum in its accumulators, and its rows in the result directory.
     */
    @Test
    void theRestApiRunsTheExampleDetached() throws Exception {
        Path dir = CLUSTER.cluster().home().resolve("rest-example");
        String jar = CLUSTER.cluster().rest().uploadJar(LocalFlinkClusterExtension.clusterJar());

        String job = runJar(
                jar,
                List.of(
                        "example",
                        "ex10",
                        "--inserts",
                        Integer.toString(INSERTS),
                        "--parallelism",
                        "2",
                        "--result-dir",
                        dir.toString()));

        assertThat(jobs.awaitState(job, Set.of("FINISHED"), Duration.ofMinutes(3)))
                .isEqualTo("FINISHED");
        ResultChecksum checksum = Ex10Oracle.checksum(expected);
        assertThat(jobs.accumulators(job))
                .containsEntry(JobReport.SNAPSHOT, Integer.toString(INSERTS))
                .containsEntry(JobReport.ROWS, Long.toString(checksum.rows()))
                .containsEntry(JobReport.CHECKSUM, Long.toString(checksum.value()))
                .containsEntry(JobReport.DEAD_LETTERS, "0");
        assertThat(jobs.accumulators(job).get(JobReport.PARTS)).isNotEqualTo("0");
        assertThat(ClusterJobs.partFileLines(dir.resolve(JobReport.RESULT_DIRECTORY)))
                .containsExactlyInAnyOrderElementsOf(Ex10Oracle.lines(expected));
    }

    /** {@code run} through the REST API: the JobManager reads the input, the job writes the result to --result-dir. */
    @Test
    void theRestApiRunsTheRunCommandDetached() throws Exception {
        Path dir = CLUSTER.cluster().home().resolve("rest-run");
        Files.createDirectories(dir);
        Path in = input(dir, 5_000);
        String jar = CLUSTER.cluster().rest().uploadJar(LocalFlinkClusterExtension.clusterJar());

        String job =
                runJar(jar, runCommand(in, "--result-dir", dir.resolve("out").toString(), "--parallelism", "2"));

        assertThat(jobs.awaitState(job, Set.of("FINISHED"), Duration.ofMinutes(3)))
                .isEqualTo("FINISHED");
        Map<Tuple, String> result = Ex10Oracle.result(Ex10Oracle.inserts(5_000, 7));
        assertThat(ClusterJobs.partFileLines(dir.resolve("out").resolve(JobReport.RESULT_DIRECTORY)))
                .containsExactlyInAnyOrderElementsOf(Ex10Oracle.lines(result));
        assertThat(jobs.accumulators(job)).containsEntry(JobReport.SNAPSHOT, "5000");
    }

    /**
     * A detached {@code run} with {@code --output} cannot work (nobody is there to write it): the REST call fails
     * with the command's message, and the JobManager lives on ({@code main} never calls System.exit there).
     */
    @Test
    void aDetachedRunWithOutputFailsWithItsMessage() throws Exception {
        Path dir = CLUSTER.cluster().home().resolve("rest-refused");
        Files.createDirectories(dir);
        Path in = input(dir, 10);
        String jar = CLUSTER.cluster().rest().uploadJar(LocalFlinkClusterExtension.clusterJar());

        assertThatThrownBy(() -> runJar(
                        jar, runCommand(in, "--output", dir.resolve("out.csv").toString())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("flink-ivm ended with exit code 2")
                .hasMessageContaining("give --result-dir DIR instead");
        assertThat(CLUSTER.cluster().jobManager()).isPresent();
        assertThat(CLUSTER.cluster()
                        .rest()
                        .get("/overview")
                        .path("taskmanagers")
                        .asInt())
                .isEqualTo(LocalFlinkClusterExtension.TASK_MANAGERS);
    }

    /** {@code run --query <Ex. 10> --semiring natural --input IN} and {@code more}. */
    private static List<String> runCommand(Path in, String... more) {
        List<String> args = new ArrayList<>(
                List.of("run", "--query", Ex10Oracle.QUERY, "--semiring", "natural", "--input", in.toString()));
        args.addAll(List.of(more));
        return args;
    }

    /** {@code POST /jars/:id/run} with the program's arguments; returns the job id. */
    private static String runJar(String jar, List<String> args) throws IOException {
        StringBuilder body =
                new StringBuilder("{\"entryClass\":\"").append(MAIN).append("\",\"programArgsList\":[");
        for (int i = 0; i < args.size(); i++) {
            body.append(i == 0 ? "" : ",")
                    .append('"')
                    .append(args.get(i).replace("\\", "\\\\").replace("\"", "\\\""))
                    .append('"');
        }
        body.append("]}");
        return CLUSTER.cluster()
                .rest()
                .post("/jars/" + jar + "/run", body.toString())
                .path("jobid")
                .asText();
    }

    /** {@code n} inserts of Ex. 10 (seed 7) as a {@code run} input file, with two malformed lines among them. */
    private static Path input(Path dir, int n) throws IOException {
        List<String> lines = new ArrayList<>();
        for (InputRecord<Long> r : Ex10Oracle.inserts(n, 7)) {
            lines.add(Ex10Oracle.csv(r));
        }
        lines.add(Math.min(3, lines.size()), "R9,x,1");
        lines.add(Math.min(5, lines.size()), "R4,c1,not-a-number");
        return Files.write(dir.resolve("inserts.csv"), lines, StandardCharsets.UTF_8);
    }
}
