package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.examples.testing.CliRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

class MainTest {

    @Test
    void topLevelHelpListsTheSubcommands() {
        CliRun r = CliRun.of("--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out())
                .contains(
                        "Usage: flink-ivm",
                        "Commands:",
                        "explain",
                        "run",
                        "example",
                        "--version",
                        "Without a command, flink-ivm runs the default example");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void explainHelpDescribesEveryOption() {
        CliRun r = CliRun.of("explain", "--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out())
                .contains(
                        "Usage: flink-ivm explain",
                        "--query",
                        "--semiring",
                        "--plan",
                        "--format",
                        "p-hierarchical",
                        "mermaid",
                        "Default: natural",
                        "Exit codes:");
    }

    @Test
    void runHelpDescribesEveryOptionAndTheFileFormats() {
        CliRun r = CliRun.of("run", "--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out())
                .contains(
                        "Usage: flink-ivm run",
                        "--query",
                        "--semiring",
                        "--input",
                        "--output",
                        "--dead-letter",
                        "--engine",
                        "--plan",
                        "--state",
                        "--parallelism",
                        "--checkpoint-dir",
                        "--checkpoint-interval",
                        "Default: flink",
                        "File formats:",
                        "relation,value1,...,valueK,payload",
                        "line_number,reason,original text",
                        "RFC 4180");
    }

    @Test
    void everyRegisteredSubcommandHasHelp() {
        Set<String> names = Main.commandLine().getSubcommands().keySet();
        assertThat(names)
                .contains("explain", "run", "example")
                .hasSize(Main.subcommands().size());

        for (String name : names) {
            CliRun r = CliRun.of(name, "--help");

            assertThat(r.exitCode()).as(name).isZero();
            assertThat(r.out()).as(name).contains("Usage: flink-ivm " + name, "--help");
        }
    }

    @Test
    void withoutACommandRunsTheDefaultExample() {
        CommandLine cl = Main.commandLine();
        // The default example at its full size takes seconds; the same defaults with fewer inserts.
        cl.getSubcommands()
                .get("example")
                .setDefaultValueProvider(arg ->
                        arg.isOption() && ((OptionSpec) arg).longestName().equals("--inserts") ? "300" : null);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));

        int code = cl.execute();

        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString())
                .startsWith("No command given: running the default example ('flink-ivm example ex10')")
                .contains(
                        "flink-ivm example 'ex10'",
                        "Data: 300 generated inserts",
                        "Plan: p-hierarchical",
                        "after          300 inserts",
                        "Done: 300 inserts");
    }

    /** bench and soak are flink-ivm-bench's: flink-ivm does not have them and its help says where they are. */
    @Test
    void theMeasurementsAreNotFlinkIvmsCommands() {
        assertThat(Main.commandLine().getSubcommands()).doesNotContainKeys("bench", "soak");
        assertThat(CliRun.of("--help").out().replaceAll("\\s+", " "))
                .contains("bench and soak, how flink-ivm measures itself, are in flink-ivm-bench.jar:"
                        + " 'java -jar flink-ivm-bench/target/flink-ivm-bench.jar --help'");
        CliRun bench = CliRun.of("bench");
        assertThat(bench.exitCode()).isEqualTo(2);
        assertThat(bench.err()).contains("bench");
    }

    @Test
    void unknownCommandIsAUsageError() {
        CliRun r = CliRun.of("frobnicate");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("frobnicate", "Try 'flink-ivm --help'");
    }
}
