package io.flinkivm.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.semiring.NaturalSemiring;
import io.flinkivm.examples.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCommandTest {

    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void helpDocumentsTheContract() {
        Run r = run("bench", "--help");

        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Usage: flink-ivm bench", "--quick", "--suite", "--out", "Default: all",
                "Default: bench-out", "--distributions", ResultsCsv.HEADER, "Exit codes:");
    }

    @Test
    void anUnknownSuiteIsAUsageError() {
        Run r = run("bench", "--suite", "nope", "--out", dir.toString());

        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("unknown suite 'nope'");
    }

    @Test
    void coreSuiteOnTinyStreamsFromTheCommandLine() throws Exception {
        Run r = run("bench", "--suite", "core", "--sizes", "100,300", "--reps", "1", "--distributions", "zipf",
                "--out", dir.toString());

        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Files.readAllLines(dir.resolve("results.csv"))).hasSize(1 + 2 * 2);
        assertThat(r.out()).contains("ratio fallback/p-hierarchical (ns per insert):", "flatness (ns per insert at n=300 ÷ at n=100):");
    }

    @Test
    void anUnknownDistributionIsAUsageError() {
        Run r = run("bench", "--distributions", "gauss", "--out", dir.toString());

        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("unknown distribution 'gauss'");
    }

    @Test
    void example10HasFourKeyedHops() {
        var plan = Planner.plan(QueryParser.parse(Example10Workload.QUERY), NaturalSemiring.INSTANCE);

        assertThat(TrivialKeyedSystem.keyedHops(plan)).isEqualTo(4);
        assertThat(TrivialKeyedSystem.keyedHops(Planner.plan(QueryParser.parse(Example10Workload.QUERY),
                NaturalSemiring.INSTANCE, Planner.Strategy.FALLBACK))).isEqualTo(1);
    }
}
