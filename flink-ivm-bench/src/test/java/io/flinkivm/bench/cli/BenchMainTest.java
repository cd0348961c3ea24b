package io.flinkivm.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.testing.CliRun;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BenchMainTest {

    private static CliRun run(String... args) {
        return CliRun.of(BenchMain::run, args);
    }

    @Test
    void helpListsBenchBenchTableAndSoak() {
        CliRun r = run("--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out())
                .contains(
                        "Usage: flink-ivm-bench",
                        "Commands:",
                        "bench",
                        "bench-table",
                        "soak",
                        "--log-level",
                        "--version");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void everyRegisteredSubcommandHasHelp() {
        Set<String> names = BenchMain.commandLine().getSubcommands().keySet();
        assertThat(names)
                .containsExactly("bench", "bench-table", "soak", "soak-plot")
                .hasSize(BenchMain.subcommands().size());

        for (String name : names) {
            CliRun r = run(name, "--help");

            assertThat(r.exitCode()).as(name).isZero();
            assertThat(r.out()).as(name).contains("Usage: flink-ivm-bench " + name, "--help");
        }
    }

    @Test
    void withoutACommandIsAUsageError() {
        CliRun r = run();

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("Missing required subcommand", "Try 'flink-ivm-bench --help'");
    }

    @Test
    void flinkIvmsCommandsAreNotHere() {
        CliRun r = run("run", "--query", "Q(A) :- R(A)");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("run");
    }
}
