package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.testing.CliRun;
import org.junit.jupiter.api.Test;

class ExampleCommandTest {

    @Test
    void listsTheExamples() {
        CliRun r = CliRun.of("example", "--list");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("ex10 ", "tropical ", "provenance ", "fallback ", "min-plus");
    }

    @Test
    void helpNamesTheExamplesAndOptions() {
        CliRun r = CliRun.of("example", "--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out())
                .contains(
                        "Usage: flink-ivm example",
                        "[NAME]",
                        "ex10, tropical, provenance",
                        "fallback",
                        "Default: ex10",
                        "--inserts",
                        "--skew",
                        "--seed",
                        "--parallelism",
                        "--state",
                        "--list",
                        "exponent of a Zipf");
    }

    @Test
    void runsAnExampleOnRocksDbInParallel() {
        CliRun r = CliRun.of(
                "example",
                "tropical",
                "--inserts",
                "400",
                "--skew",
                "1.5",
                "--seed",
                "3",
                "--state",
                "rocksdb",
                "--parallelism",
                "2");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains(
                        "flink-ivm example 'tropical'",
                        "Zipf keys (s = 1.5), seed 3",
                        "state rocksdb, parallelism 2",
                        "Plan: p-hierarchical",
                        "after          400 inserts",
                        "Done: 400 inserts",
                        "cheapest first",
                        "Cheapest(wh");
    }

    @Test
    void explainsTheFactsBehindAProvenanceResult() {
        CliRun r = CliRun.of("example", "provenance", "--inserts", "600");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .containsPattern("Covered\\(p\\d+, drug\\d+\\) = .*rx_\\d+")
                .containsPattern("rx_\\d+ is Prescribed\\(p\\d+, drug\\d+, dr\\d+\\)");
    }

    @Test
    void unknownExampleIsAUsageError() {
        CliRun r = CliRun.of("example", "tpcx");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("unknown example 'tpcx'; the examples are: ex10, tropical");
    }

    @Test
    void badSizesAreUsageErrors() {
        CliRun zero = CliRun.of("example", "--inserts", "0");
        CliRun skew = CliRun.of("example", "--skew", "-1");

        assertThat(zero.exitCode()).isEqualTo(2);
        assertThat(zero.err()).contains("--inserts must be >= 1");
        assertThat(skew.exitCode()).isEqualTo(2);
        assertThat(skew.err()).contains("--skew must be a finite number >= 0");
    }
}
