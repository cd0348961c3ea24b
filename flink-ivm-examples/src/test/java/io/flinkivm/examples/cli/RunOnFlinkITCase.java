package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.report.JobReport;
import io.flinkivm.examples.testing.CliRun;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code run --engine flink} (the default) against {@code --engine memory} on the same inputs, and its failure paths. */
class RunOnFlinkITCase {

    static final String PATH = "Q(A,C) :- R(A,B), S(B,C)";
    static final String COVERED = "Covered(P,D) :- Prescribed(P,D,Doc), Dispensed(P,D,Ph), Insured(P,Pl)";

    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        List<String> rocksdb = List.of("--state", "rocksdb", "--parallelism", "2");
        List<Arguments> out = new ArrayList<>();
        for (List<String> flink : List.of(List.<String>of(), rocksdb)) {
            out.add(Arguments.of("Ex. 10", RunCommandTest.EX10, "natural", "ex10", flink));
            out.add(Arguments.of("path (fallback)", PATH, "natural", "path", flink));
            out.add(Arguments.of("provenance", COVERED, "provenance", "covered", flink));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {4}")
    @MethodSource("cases")
    void flinkAndMemoryWriteTheSameResult(String label, String query, String semiring, String input, List<String> flink)
            throws Exception {
        Path in = input(input);
        Path memoryOut = dir.resolve("memory.csv");
        Path flinkOut = dir.resolve("flink.csv");

        CliRun memory = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--query",
                query,
                "--semiring",
                semiring,
                "--input",
                in.toString(),
                "--output",
                memoryOut.toString());
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--query",
                query,
                "--semiring",
                semiring,
                "--input",
                in.toString(),
                "--output",
                flinkOut.toString()));
        args.addAll(flink);
        CliRun onFlink = CliRun.of(args.toArray(new String[0]));

        assertThat(memory.exitCode()).as(memory.err()).isZero();
        assertThat(onFlink.exitCode()).as(onFlink.err()).isZero();
        assertThat(onFlink.err()).isEmpty();
        assertThat(summary(onFlink.out())).isEqualTo(summary(memory.out()));
        List<String> expected = Files.readAllLines(memoryOut);
        assertThat(expected).hasSizeGreaterThan(1);
        List<String> actual = Files.readAllLines(flinkOut);
        assertThat(actual.get(0)).isEqualTo(expected.get(0));
        assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void runsExample10OnFlinkByDefault() throws Exception {
        Path out = dir.resolve("out.csv");

        CliRun r = CliRun.of(
                "run",
                "--query",
                RunCommandTest.EX10,
                "--semiring",
                "natural",
                "--input",
                resource("ex10-inserts.csv"),
                "--output",
                out.toString(),
                "--state",
                "heap",
                "--parallelism",
                "1");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("inserts: 14, rejected: 0\n", "result: 2 tuples written to");
        assertThat(Files.readAllLines(out)).containsExactlyInAnyOrder("A,C,payload", "a1,c1,180", "a1,c2,120");
    }

    /** Lines the CLI rejects come first in the dead-letter file; the overflow that Flink finds comes back from the job. */
    @Test
    void rejectsOnFlinkLikeInMemory() throws Exception {
        Path in = Files.writeString(
                dir.resolve("in.csv"),
                "R,a,b,2\n" // 1 ok
                        + "R,a,b\n" // 2 wrong arity
                        + "S,b,c,1\n" // 3 ok
                        + "R,a,b,9223372036854775807\n" // 4 overflow in the delta joins' copy of R: 2 + max
                        + "X,a,1\n", // 5 unknown relation
                StandardCharsets.UTF_8);
        Path out = dir.resolve("out.csv");
        Path dead = dir.resolve("dead.csv");

        CliRun r = CliRun.of(
                "run",
                "--query",
                PATH,
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                out.toString(),
                "--dead-letter",
                dead.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("inserts: 2, rejected: 3\n", "result: 1 tuple written to");
        assertThat(r.err())
                .contains(
                        "line 2: wrong arity",
                        "line 5: unknown relation 'X'",
                        "line 4: update failed: natural-number overflow",
                        "written to " + dead);
        assertThat(Files.readAllLines(out)).containsExactly("A,C,payload", "a,c,2");
        List<String> letters = Files.readAllLines(dead);
        assertThat(letters).hasSize(3);
        assertThat(letters.get(0)).startsWith("2,\"wrong arity");
        assertThat(letters.get(1)).startsWith("5,\"unknown relation 'X'");
        assertThat(letters.get(2))
                .startsWith("4,\"update failed: ")
                .contains(
                        "natural-number overflow: 2 + 9223372036854775807",
                        "this update of the insert was not applied (in a self-join, its other atoms may have been)",
                        "\"R,a,b,9223372036854775807\"");
    }

    /**
     * {@code --result-dir}: the job itself writes the final result's rows and its dead letters (what a detached
     * submission relies on), besides the client's {@code --output}.
     */
    @Test
    void theJobWritesItsResultAndDeadLettersToTheResultDirectory() throws Exception {
        Path in = Files.writeString(
                dir.resolve("in.csv"),
                "R,a,b,2\nS,b,c,1\nR,a,d,1\nS,d,\"c,2\",3\nR,a,b,9223372036854775807\n",
                StandardCharsets.UTF_8);
        Path results = dir.resolve("results");

        CliRun r = CliRun.of(
                "run",
                "--query",
                PATH,
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                dir.resolve("out.csv").toString(),
                "--result-dir",
                results.toString(),
                "--parallelism",
                "2");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(partFiles(results.resolve(JobReport.RESULT_DIRECTORY)))
                .containsExactlyInAnyOrder("a,c,2", "a,\"c,2\",3");
        assertThat(Files.readAllLines(dir.resolve("out.csv")))
                .containsExactlyInAnyOrder("A,C,payload", "a,c,2", "a,\"c,2\",3");
        List<String> letters = partFiles(results.resolve(JobReport.DEAD_LETTER_DIRECTORY));
        assertThat(letters).hasSize(1);
        assertThat(letters.get(0)).contains("natural-number overflow: 2 + 9223372036854775807");
    }

    private static List<String> partFiles(Path dir) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("part-"))
                    .toList()) {
                lines.addAll(Files.readAllLines(f));
            }
        }
        return lines;
    }

    @Test
    void resultPayloadOverflowFailsWithoutWritingOutput() throws Exception {
        Path in =
                Files.writeString(dir.resolve("in.csv"), "R,a,b,9223372036854775807\nS,a,2\n", StandardCharsets.UTF_8);

        CliRun r = CliRun.of(
                "run",
                "--query",
                "Q(A) :- R(A,B), S(A)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                dir.resolve("out.csv").toString());

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("result payload overflowed", "no output was written");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("in.csv");
        }
    }

    @Test
    void checkpointsToTheGivenDirectory() throws Exception {
        Path in = input("ex10");
        Path out = dir.resolve("out.csv");
        Path expected = dir.resolve("expected.csv");
        Path checkpoints = dir.resolve("checkpoints");

        CliRun r = CliRun.of(
                "run",
                "--query",
                RunCommandTest.EX10,
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                out.toString(),
                "--state",
                "rocksdb",
                "--checkpoint-dir",
                checkpoints.toString(),
                "--checkpoint-interval",
                "50 ms");
        CliRun memory = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--query",
                RunCommandTest.EX10,
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                expected.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(Files.readAllLines(out)).containsExactlyInAnyOrderElementsOf(Files.readAllLines(expected));
        assertThat(checkpoints).isDirectory();
    }

    @Test
    void anEmptyInputGivesAnEmptyResult() throws Exception {
        Path in = Files.writeString(dir.resolve("in.csv"), "# nothing\n", StandardCharsets.UTF_8);
        Path out = dir.resolve("out.csv");

        CliRun r = CliRun.of(
                "run",
                "--query",
                "Q() :- R(A,B), S(B)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                out.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("inserts: 0, rejected: 0\n", "result: 0 tuples");
        assertThat(Files.readAllLines(out)).containsExactly("payload");
    }

    @Test
    void flinkOptionsNeedTheFlinkEngine() throws Exception {
        Path in = Files.writeString(dir.resolve("in.csv"), "R,a,1\n", StandardCharsets.UTF_8);

        CliRun r = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--state",
                "rocksdb",
                "--query",
                "Q(A) :- R(A)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                dir.resolve("out.csv").toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("apply to --engine flink only");
    }

    @Test
    void badFlinkOptionsAreUsageErrors() throws Exception {
        Path in = Files.writeString(dir.resolve("in.csv"), "R,a,1\n", StandardCharsets.UTF_8);
        String[] common = {
            "run",
            "--query",
            "Q(A) :- R(A)",
            "--semiring",
            "natural",
            "--input",
            in.toString(),
            "--output",
            dir.resolve("out.csv").toString()
        };

        CliRun state = CliRun.of(concat(common, "--state", "memory"));
        CliRun parallelism = CliRun.of(concat(common, "--parallelism", "0"));
        CliRun interval = CliRun.of(concat(common, "--checkpoint-interval", "soon"));

        assertThat(state.exitCode()).isEqualTo(2);
        assertThat(state.err()).contains("--state", "unknown value 'memory'", "heap, rocksdb");
        assertThat(parallelism.exitCode()).isEqualTo(2);
        assertThat(parallelism.err()).contains("--parallelism': the parallelism must be at least 1, got 0");
        assertThat(interval.exitCode()).isEqualTo(2);
        assertThat(interval.err()).contains("not a duration: 'soon'");
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** The "inserts: N, rejected: M" line. */
    private static String summary(String out) {
        return out.lines().filter(l -> l.startsWith("inserts: ")).findFirst().orElse("(none)");
    }

    /** Test inputs: Ex. 10's file, and seeded random streams with repeated tuples for the path and Covered queries. */
    private Path input(String name) throws IOException, URISyntaxException {
        if (name.equals("ex10")) {
            return Path.of(resource("ex10-inserts.csv"));
        }
        Random random = new Random(name.hashCode());
        StringBuilder sb = new StringBuilder("# generated\n");
        for (int i = 0; i < 300; i++) {
            if (name.equals("path")) {
                sb.append(
                                random.nextBoolean()
                                        ? "R,a" + random.nextInt(8) + ",b" + random.nextInt(6)
                                        : "S,b" + random.nextInt(6) + ",c" + random.nextInt(8))
                        .append(',')
                        .append(1 + random.nextInt(3));
            } else {
                int kind = random.nextInt(3);
                String p = "p" + random.nextInt(10);
                String fact = "f" + i;
                sb.append(
                                switch (kind) {
                                    case 0 -> "Prescribed," + p + ",d" + random.nextInt(5) + ",doc" + random.nextInt(3);
                                    case 1 -> "Dispensed," + p + ",d" + random.nextInt(5) + ",ph" + random.nextInt(3);
                                    default -> "Insured," + p + ",plan" + random.nextInt(2);
                                })
                        .append(',')
                        .append(fact);
            }
            sb.append('\n');
        }
        return Files.writeString(dir.resolve(name + ".csv"), sb.toString(), StandardCharsets.UTF_8);
    }

    private static String resource(String name) throws URISyntaxException {
        return Path.of(RunOnFlinkITCase.class.getResource("/cli/" + name).toURI())
                .toString();
    }
}
