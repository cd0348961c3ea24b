package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.csv.Csv;
import io.flinkivm.examples.testing.CliRun;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run command's input handling, on the in-memory engine where a test is about parsing; see RunOnFlinkITCase. */
class RunCommandTest {

    static final String EX10 = ExplainCommandTest.EX10;

    @TempDir
    Path dir;

    /**
     * Ex. 10 over natural numbers, by hand: V[A](a1) = Σ_B (Σ_D R1·R2)·R3 = (2+1)·5 (d2 has no R2) · (1+1) = 30;
     * V[A,C](a1,c1) = 1+2 = 3, V[A,C](a1,c2) = 1; R4(c1) = 1+1 = 2, R4(c2) = 4. So Q(a1,c1) = 30·3·2 = 180 and
     * Q(a1,c2) = 30·1·4 = 120; a2 has no V[A] tuple and c3 no V[A,C] tuple.
     */
    @Test
    void runsExample10() throws Exception {
        Path out = dir.resolve("out.csv");

        CliRun r = CliRun.of(
                "run",
                "--query",
                EX10,
                "--semiring",
                "natural",
                "--input",
                resource("ex10-inserts.csv"),
                "--output",
                out.toString());

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("inserts: 14, rejected: 0\n", "result: 2 tuples written to");
        assertThat(r.err()).isEmpty();
        List<String> lines = Files.readAllLines(out);
        assertThat(lines.get(0)).isEqualTo("A,C,payload");
        assertThat(lines.subList(1, lines.size())).containsExactlyInAnyOrder("a1,c1,180", "a1,c2,120");
    }

    /**
     * Found by RunGarbageITCase (seed 1022): a reason cut to 300 characters inside a surrogate pair left half a
     * pair, which is not UTF-8, and the dead-letter file could not be written (exit code 1). One of the two
     * payloads puts the cut inside a pair, whichever parity the reason's prefix has.
     */
    @Test
    void aLongReasonIsCutBetweenCharacters() throws Exception {
        String clefs = "\uD834\uDD1E".repeat(200);
        Path in = Files.writeString(
                dir.resolve("in.csv"), "R,a,b," + clefs + "\nR,a,b,x" + clefs + "\n", StandardCharsets.UTF_8);
        Path dead = dir.resolve("dead.csv");

        CliRun r = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--query",
                "Q(A) :- R(A,B)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                dir.resolve("out.csv").toString(),
                "--dead-letter",
                dead.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("inserts: 0, rejected: 2\n");
        List<String> letters = Files.readAllLines(dead, StandardCharsets.UTF_8);
        assertThat(letters).hasSize(2);
        for (String letter : letters) {
            assertThat(letter).contains("…,").endsWith(clefs + "\"");
        }
    }

    @Test
    void fallbackPlanGivesTheSameResult() throws Exception {
        Path out = dir.resolve("out.csv");

        CliRun r = CliRun.of(
                "run",
                "--query",
                EX10,
                "--semiring",
                "natural",
                "--plan",
                "fallback",
                "--engine",
                "memory",
                "--input",
                resource("ex10-inserts.csv"),
                "--output",
                out.toString());

        assertThat(r.exitCode()).isZero();
        assertThat(Files.readAllLines(out)).containsExactlyInAnyOrder("A,C,payload", "a1,c1,180", "a1,c2,120");
    }

    @Test
    void rejectsMalformedLinesAndKeepsTheRest() throws Exception {
        Path in = write(
                "in.csv",
                "R,a,b,2\n" // 1 ok
                        + "R,a,b\n" // 2 wrong arity
                        + "X,a,1\n" // 3 unknown relation
                        + "S,b,c,x\n" // 4 bad payload
                        + "S,b,\"c,1\n" // 5 unclosed quote
                        + "S,b,c,1\n" // 6 ok
                        + "R,a,b,9223372036854775807\n" // 7 overflow: 2 + max
                        + "S,b,c\"d,1\n"); // 8 quote inside an unquoted field
        Path out = dir.resolve("out.csv");
        Path dead = dir.resolve("dead.csv");

        CliRun r = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--query",
                "Q(A,C) :- R(A,B), S(B,C)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                out.toString(),
                "--dead-letter",
                dead.toString());

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("inserts: 2, rejected: 6\n");
        assertThat(r.err())
                .contains(
                        "line 2: wrong arity",
                        "line 3: unknown relation 'X'",
                        "line 4: unparsable natural payload",
                        "line 5: bad quoting",
                        "line 7: payload overflow",
                        "line 8: bad quoting",
                        "written to " + dead);
        assertThat(Files.readAllLines(out)).containsExactly("A,C,payload", "a,c,2");
        assertThat(Files.readAllLines(dead))
                .containsExactly(
                        "2,\"wrong arity: relation R has arity 2 in the query, but the line has 1 value before the payload\",\"R,a,b\"",
                        "3,\"unknown relation 'X'; the query uses R, S\",\"X,a,1\"",
                        "4,unparsable natural payload: not a natural number: 'x',\"S,b,c,x\"",
                        "5,bad quoting: the quote that opens field 3 at column 5 is never closed (a quoted field cannot span lines),"
                                + "\"S,b,\"\"c,1\"",
                        "7,payload overflow: natural-number overflow: 2 + 9223372036854775807 exceeds 64 bits; the insert was"
                                + " rejected and rolled back: no view holds any of it,\"R,a,b,9223372036854775807\"",
                        "8,\"bad quoting: quote at column 6 inside unquoted field 3; put the whole field in quotes and write \"\"\"\""
                                + " for the quote\",\"S,b,c\"\"d,1\"");
    }

    @Test
    void rejectsANonUtf8LineWithAReason() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes("R,a,b,1\n".getBytes(StandardCharsets.UTF_8));
        bytes.writeBytes(new byte[] {'S', ',', 'b', ',', (byte) 0xC3, '(', ',', '1', '\n'});
        bytes.writeBytes("S,b,ç,1\n".getBytes(StandardCharsets.UTF_8));
        Path in = dir.resolve("in.csv");
        Files.write(in, bytes.toByteArray());
        Path out = dir.resolve("out.csv");
        Path dead = dir.resolve("dead.csv");

        CliRun r = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--query",
                "Q(A,C) :- R(A,B), S(B,C)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                out.toString(),
                "--dead-letter",
                dead.toString());

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("inserts: 2, rejected: 1\n");
        assertThat(r.err()).contains("line 2: not valid UTF-8: malformed byte sequence at byte 5");
        assertThat(Files.readAllLines(out)).containsExactly("A,C,payload", "a,ç,1");
        assertThat(Files.readAllLines(dead))
                .containsExactly("2,not valid UTF-8: malformed byte sequence at byte 5 of the line,\"S,b,\uFFFD(,1\"");
    }

    @Test
    void quotedFieldsMayContainCommasAndQuotes() throws Exception {
        Path in = write("in.csv", "R,a,\"b,1\",1\n" + "S,\"b,1\",\"say \"\"hi\"\"\",\"2\"\n" + "S,\"b,1\",plain,3\n");
        Path out = dir.resolve("out.csv");

        CliRun r = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--query",
                "Q(A,C) :- R(A,B), S(B,C)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                out.toString());

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("inserts: 3, rejected: 0\n");
        assertThat(Files.readAllLines(out))
                .containsExactlyInAnyOrder("A,C,payload", "a,\"say \"\"hi\"\"\",2", "a,plain,3");
    }

    @Test
    void provenancePayloadsAreAddedAndMultiplied() throws Exception {
        Path in = write("in.csv", "R,a,b,x\nR,a,b,y\nS,b,c,z\n");
        Path out = dir.resolve("out.csv");

        CliRun r = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--query",
                "Q(A,C) :- R(A,B), S(B,C)",
                "--semiring",
                "provenance",
                "--input",
                in.toString(),
                "--output",
                out.toString());

        assertThat(r.exitCode()).isZero();
        assertThat(Files.readAllLines(out)).containsExactly("A,C,payload", "a,c,x*z + y*z");
    }

    @Test
    void aQueryWithoutFreeVariablesHasOneResultLine() throws Exception {
        Path in = write("in.csv", "R,a,b,2\nR,c,b,3\nS,b,4\n");
        Path out = dir.resolve("out.csv");

        CliRun r = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--query",
                "Q() :- R(A,B), S(B)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                out.toString());

        assertThat(r.exitCode()).isZero();
        assertThat(Files.readAllLines(out)).containsExactly("payload", "20");
    }

    @Test
    void rejectsAnOversizedField() throws Exception {
        Path in = write("in.csv", "R,a," + "b".repeat(Csv.MAX_FIELD_BYTES + 1) + ",1\nR,a,b,1\n");
        Path out = dir.resolve("out.csv");

        CliRun r = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--query",
                "Q(A) :- R(A,B)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                out.toString());

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("inserts: 1, rejected: 1\n");
        assertThat(r.err())
                .contains("line 1: field 3 is longer than 65536 bytes (64 KiB)", "use --dead-letter FILE to keep them");
    }

    @Test
    void printsTheFirst20RejectedLinesAndCountsTheRest() throws Exception {
        Path in = write("in.csv", "X,1\n".repeat(25) + "R,a,1\n");
        Path out = dir.resolve("out.csv");

        CliRun r = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--query",
                "Q(A) :- R(A)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                out.toString());

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("inserts: 1, rejected: 25\n");
        assertThat(r.err())
                .contains("line 20: unknown relation 'X'", "... and 5 more rejected lines (25 in total)")
                .doesNotContain("line 21:");
    }

    @Test
    void resultPayloadOverflowFailsWithoutWritingOutput() throws Exception {
        // R's root view and S are multiplied only when the result is enumerated.
        Path in = write("in.csv", "R,a,b,9223372036854775807\nS,a,2\n");
        Path out = dir.resolve("out.csv");

        CliRun r = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--query",
                "Q(A) :- R(A,B), S(A)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                out.toString());

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.out()).contains("inserts: 2, rejected: 0");
        assertThat(r.err()).contains("result payload overflowed", "no output was written");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("in.csv");
        }
    }

    @Test
    void missingInputIsAnIoError() {
        CliRun r = CliRun.of(
                "run",
                "--query",
                "Q(A) :- R(A)",
                "--semiring",
                "natural",
                "--input",
                dir.resolve("missing.csv").toString(),
                "--output",
                dir.resolve("out.csv").toString());

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("cannot read input file", "missing.csv", "no such file or directory");
        assertThat(dir.resolve("out.csv")).doesNotExist();
    }

    @Test
    void missingOutputDirectoryIsAnIoError() throws Exception {
        Path in = write("in.csv", "R,a,1\n");

        CliRun r = CliRun.of(
                "run",
                "--query",
                "Q(A) :- R(A)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                dir.resolve("no/such/out.csv").toString());

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("cannot write output file", "does not exist");
    }

    @Test
    void unknownEngineIsAUsageError() throws Exception {
        Path in = write("in.csv", "R,a,1\n");

        CliRun r = CliRun.of(
                "run",
                "--query",
                "Q(A) :- R(A)",
                "--semiring",
                "natural",
                "--engine",
                "spark",
                "--input",
                in.toString(),
                "--output",
                dir.resolve("out.csv").toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--engine", "unknown value 'spark'", "memory");
    }

    @Test
    void malformedQueryIsAUsageError() throws Exception {
        Path in = write("in.csv", "R,a,1\n");

        CliRun r = CliRun.of(
                "run",
                "--query",
                "Q(A) :- R(A",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                dir.resolve("out.csv").toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("invalid query", "at position 11 (line 1, column 12)", "end of input");
    }

    @Test
    void semiringIsRequired() throws Exception {
        Path in = write("in.csv", "R,a,1\n");

        CliRun r = CliRun.of(
                "run",
                "--query",
                "Q(A) :- R(A)",
                "--input",
                in.toString(),
                "--output",
                dir.resolve("out.csv").toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--semiring");
    }

    @Test
    void outputIsRequiredUnlessSubmittedDetached() throws Exception {
        Path in = write("in.csv", "R,a,1\n");

        CliRun r = CliRun.of("run", "--query", "Q(A) :- R(A)", "--semiring", "natural", "--input", in.toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("Missing required option: '--output=OUT.csv'");
    }

    @Test
    void theResultDirectoryIsTheFlinkJobs() throws Exception {
        Path in = write("in.csv", "R,a,1\n");

        CliRun r = CliRun.of(
                "run",
                "--engine",
                "memory",
                "--query",
                "Q(A) :- R(A)",
                "--semiring",
                "natural",
                "--input",
                in.toString(),
                "--output",
                dir.resolve("out.csv").toString(),
                "--result-dir",
                dir.resolve("results").toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--result-dir apply to --engine flink only");
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    /**
     * Ex. 10 by hand (see {@link #runsExample10}) as a changelog every 3 accepted lines: nothing joins before
     * trigger 3, where R5(a1,c1,h1) makes Q(a1,c1) = 30·1·1; trigger 4 adds R5(a1,c1,h2) (V[A,C](a1,c1) = 3: 90)
     * and Q(a1,c2) = 30·1·4; trigger 5, the end of the input, adds R4(c1) again (180).
     */
    @Test
    void writesAChangelogEveryNLines() throws Exception {
        Path out = dir.resolve("out.csv");

        CliRun r = runExample10(
                out, "--engine", "memory", "--output-mode", "changelog", "--snapshot-every", "3", "--update-before");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("result: 2 tuples, 6 rows in 5 triggers written to");
        assertThat(Files.readAllLines(out))
                .containsExactly(
                        "trigger,kind,A,C,payload",
                        "3,+I,a1,c1,30",
                        "4,-U,a1,c1,30",
                        "4,+U,a1,c1,90",
                        "4,+I,a1,c2,120",
                        "5,-U,a1,c1,90",
                        "5,+U,a1,c1,180");
    }

    @Test
    void writesEverySnapshotWithItsTrigger() throws Exception {
        Path out = dir.resolve("out.csv");

        CliRun r = runExample10(out, "--engine", "memory", "--snapshot-every", "5");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("result: 2 tuples, 3 rows in 3 triggers written to");
        List<String> lines = Files.readAllLines(out);
        assertThat(lines.get(0)).isEqualTo("trigger,A,C,payload");
        assertThat(lines.subList(1, 2)).containsExactly("2,a1,c1,90");
        assertThat(lines.subList(2, 4)).containsExactlyInAnyOrder("3,a1,c1,180", "3,a1,c2,120");
    }

    @Test
    void refusesUpdateBeforeWithoutAChangelogAndANegativeCount() throws Exception {
        Path out = dir.resolve("out.csv");

        CliRun before = runExample10(out, "--engine", "memory", "--update-before");
        CliRun negative = runExample10(out, "--engine", "memory", "--snapshot-every", "-1");

        assertThat(before.exitCode()).isEqualTo(2);
        assertThat(before.err()).contains("--update-before goes with --output-mode changelog only");
        assertThat(negative.exitCode()).isEqualTo(2);
        assertThat(negative.err()).contains("--snapshot-every must be >= 0, got -1");
        assertThat(out).doesNotExist();
    }

    /** {@code run} of Ex. 10 over natural numbers on the hand-computed input, with {@code options}. */
    private static CliRun runExample10(Path out, String... options) throws URISyntaxException {
        List<String> args = new java.util.ArrayList<>(List.of(
                "run",
                "--query",
                EX10,
                "--semiring",
                "natural",
                "--input",
                resource("ex10-inserts.csv"),
                "--output",
                out.toString()));
        args.addAll(List.of(options));
        return CliRun.of(args.toArray(new String[0]));
    }

    private static String resource(String name) throws URISyntaxException {
        return Path.of(RunCommandTest.class.getResource("/cli/" + name).toURI()).toString();
    }
}
