package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class MainTest {

    @Test
    void topLevelHelpListsTheSubcommands() {
        CliRun r = CliRun.of("--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Usage: flink-ivm", "Commands:", "explain", "run", "--version");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void explainHelpDescribesEveryOption() {
        CliRun r = CliRun.of("explain", "--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Usage: flink-ivm explain", "--query", "--semiring", "--plan", "--format",
                "p-hierarchical", "mermaid", "Default: natural", "Exit codes:");
    }

    @Test
    void runHelpDescribesEveryOptionAndTheFileFormats() {
        CliRun r = CliRun.of("run", "--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("Usage: flink-ivm run", "--query", "--semiring", "--input", "--output",
                "--dead-letter", "--engine", "--plan", "Default: memory", "File formats:",
                "relation,value1,...,valueK,payload", "line_number,reason,original text", "RFC 4180");
    }

    @Test
    void everyRegisteredSubcommandHasHelp() {
        Set<String> names = Main.commandLine().getSubcommands().keySet();
        assertThat(names).contains("explain", "run").hasSize(Main.subcommands().size());

        for (String name : names) {
            CliRun r = CliRun.of(name, "--help");

            assertThat(r.exitCode()).as(name).isZero();
            assertThat(r.out()).as(name).contains("Usage: flink-ivm " + name, "--help");
        }
    }

    @Test
    void withoutACommandPrintsUsageAndFails() {
        CliRun r = CliRun.of();

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("missing command", "Usage: flink-ivm");
    }

    @Test
    void unknownCommandIsAUsageError() {
        CliRun r = CliRun.of("frobnicate");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("frobnicate", "Try 'flink-ivm --help'");
    }
}
