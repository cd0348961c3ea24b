package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.testing.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code run} with change kinds (+I, -D, -U, +U) on both engines (Flink at parallelism 1 and 3: the same
 * output files), and {@code explain --changelog}.
 */
class RunDeletesTest {
    private static final String QUERY = "Q(A,C) :- R(A,B), S(A,C,D), T(A)";

    @TempDir
    Path dir;

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    /** {@code run} of {@link #QUERY} over {@code in} into {@code out}, with {@code options} before them. */
    private static CliRun run(Path in, Path out, String... options) {
        List<String> args = new ArrayList<>(List.of("run"));
        args.addAll(List.of(options));
        args.addAll(List.of("--query", QUERY, "--input", in.toString(), "--output", out.toString()));
        return CliRun.of(args.toArray(new String[0]));
    }

    /**
     * By hand, over the integers: V[A](a) = R(a,b1) + R(a,b2), V[A,C](a,c) = Σ_D S(a,c,D), T(a). After the
     * lines, R(a,b1) = 2 (3 - 1), R(a,b2) moved to R(a,b3) = 4, so V[A](a) = 6; S(a,c1,d1) = 5 was deleted,
     * S(a,c2,d1) = 2; T(a) = 1. Q(a,c2) = 6 · 2 · 1 = 12, and (a,c1) left the result.
     */
    private static final String LINES = "R,a,b1,3\n" // 1 an insert without a kind
            + "+I,R,a,b2,4\n" // 2
            + "+I,S,a,c1,d1,5\n" // 3
            + "S,a,c2,d1,2\n" // 4
            + "T,a,1\n" // 5: Q(a,c1) = 7·5·1 = 35, Q(a,c2) = 14
            + "-D,R,a,b1,1\n" // 6 part of R(a,b1): V[A](a) = 6
            + "-U,R,a,b2,4\n" // 7 an update, in two lines
            + "+U,R,a,b3,4\n" // 8
            + "-D,S,a,c1,d1,5\n" // 9 (a,c1) leaves
            + "-D,R,a,zz,1\n" // 10 not there: a dead letter
            + "-D,R,a,b1,7\n" // 11 more than R(a,b1) holds: a dead letter
            + "-D,T,a\n"; // 12 no payload: wrong arity

    /** The engines: memory, and Flink at parallelism 1 and 3. */
    static List<List<String>> engines() {
        return List.of(
                List.of("--engine", "memory"),
                List.of("--engine", "flink", "--parallelism", "1"),
                List.of("--engine", "flink", "--parallelism", "3"));
    }

    private static String[] with(List<String> engine, String... options) {
        List<String> all = new ArrayList<>(engine);
        all.addAll(List.of(options));
        return all.toArray(new String[0]);
    }

    @ParameterizedTest
    @MethodSource("engines")
    void deletesAndUpdates(List<String> engine) throws Exception {
        Path in = write("in.csv", LINES);
        Path out = dir.resolve("out.csv");
        Path dead = dir.resolve("dead.csv");

        CliRun r = run(in, out, with(engine, "--semiring", "integer", "--dead-letter", dead.toString()));

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("inserts: 9, rejected: 3\n", "result: 1 tuple written to");
        assertThat(Files.readAllLines(out)).containsExactly("A,C,payload", "a,c2,12");
        assertThat(Files.readAllLines(dead))
                .containsExactly(
                        "10,\"delete of R(a, zz) with payload 1: R holds no such row; the delete is rejected and changes"
                                + " nothing\",\"-D,R,a,zz,1\"",
                        "11,\"delete of R(a, b1) with payload 7: the row holds 2, a delete takes away part of that at"
                                + " most; the delete is rejected and changes nothing\",\"-D,R,a,b1,7\"",
                        "12,\"wrong arity: relation T has arity 1 in the query, but the line has 0 values before the"
                                + " payload\",\"-D,T,a\"");
    }

    @ParameterizedTest
    @MethodSource("engines")
    void theChangelogHasDeletesForTuplesThatLeave(List<String> engine) throws Exception {
        Path in = write("in.csv", LINES);
        Path out = dir.resolve("out.csv");

        CliRun r = run(
                in, out, with(engine, "--semiring", "integer", "--output-mode", "changelog", "--snapshot-every", "5"));

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(Files.readAllLines(out))
                .containsExactlyInAnyOrder(
                        "trigger,kind,A,C,payload", "1,+I,a,c1,35", "1,+I,a,c2,14", "2,-D,a,c1,35", "2,+U,a,c2,12");
        assertThat(r.out()).contains("result: 1 tuple, 4 rows in 2 triggers written to");
    }

    @ParameterizedTest
    @MethodSource("engines")
    void aFallbackQueryGivesTheSameResult(List<String> engine) throws Exception {
        Path in = write("in.csv", LINES);
        Path out = dir.resolve("out.csv");

        CliRun r = run(in, out, with(engine, "--plan", "fallback", "--semiring", "integer"));

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(Files.readAllLines(out)).containsExactly("A,C,payload", "a,c2,12");
    }

    @Test
    void deletesNeedARing() throws Exception {
        Path in = write("in.csv", LINES);
        Path out = dir.resolve("out.csv");

        CliRun natural = run(in, out, "--engine", "memory", "--semiring", "natural");
        assertThat(natural.exitCode()).isEqualTo(2);
        assertThat(natural.err())
                .contains("unsupported plan: R, S receive deletes and updates, which need a ring")
                .contains("integer for natural");
        assertThat(out).doesNotExist();
    }

    @Test
    void explainShowsThePlanForAChangelog() {
        CliRun q = CliRun.of("explain", "--query", QUERY, "--semiring", "integer", "--changelog", "S");
        assertThat(q.exitCode()).as(q.err()).isZero();
        assertThat(q.out())
                .contains("Inputs: R, T insert-only; S with deletes and updates\n")
                .contains("Plan: q-hierarchical")
                .contains("Guarantee: O(1) per insert or delete")
                .contains("row check S (deletes of absent rows are dead letters)")
                .contains("q-tree join of the root views + payload recovery (sink)");

        CliRun notQ =
                CliRun.of("explain", "--query", ExplainCommandTest.EX10, "--semiring", "integer", "--changelog", "R4");
        assertThat(notQ.exitCode()).as(notQ.err()).isZero();
        assertThat(notQ.out()).contains("Plan: fallback").contains("the deletes of R4 force the fallback");

        CliRun unknown = CliRun.of("explain", "--query", QUERY, "--semiring", "integer", "--changelog", "X");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("--changelog: changelog relation X is not a relation of Q");
    }
}
