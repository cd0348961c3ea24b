package io.flinkivm.bench.cli;

import io.flinkivm.bench.BenchCommand;
import io.flinkivm.bench.BenchTableCommand;
import io.flinkivm.bench.soak.SoakCommand;
import io.flinkivm.bench.soak.SoakPlotCommand;
import io.flinkivm.examples.command.CommandLines;
import io.flinkivm.examples.command.LogLevelOption;
import io.flinkivm.examples.command.Version;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code flink-ivm-bench} command: {@code java -jar flink-ivm-bench.jar <subcommand> ...}. Subcommands are
 * registered in {@link #subcommands()} only. Exit codes as {@code flink-ivm}'s: 0 success, 1 a failed check or a
 * run that could not complete, 2 bad arguments.
 */
@Command(
        name = "flink-ivm-bench",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "How flink-ivm measures itself: against its peers (bench, its figures as a markdown table: bench-table)"
                    + " and over a long stream (soak)."
        },
        commandListHeading = "%nCommands:%n",
        footerHeading = "%n",
        footer = {
            "Run 'flink-ivm-bench COMMAND --help' for a command's options and output; docs/benchmarks.md has the"
                    + " figures measured with them.",
            "The commands a user runs (explain, run, example, kafka) are in flink-ivm-examples.jar."
        })
public final class BenchMain implements Runnable {

    @Spec
    CommandSpec spec;

    @Mixin
    LogLevelOption logLevel;

    /** The subcommands, in the order the usage lists them; a new subcommand is added here and nowhere else. */
    static List<Object> subcommands() {
        return List.of(new BenchCommand(), new BenchTableCommand(), new SoakCommand(), new SoakPlotCommand());
    }

    /** Without a subcommand: a usage error, exit code 2. */
    @Override
    public void run() {
        throw new ParameterException(
                spec.commandLine(), "Missing required subcommand: bench, bench-table, soak or soak-plot");
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        System.exit(run(out, err, args));
    }

    /** Runs the command line with the given streams and returns the exit code; never calls System.exit. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return CommandLines.run(commandLine(), out, err, args);
    }

    /** The configured command line with every subcommand. */
    public static CommandLine commandLine() {
        return CommandLines.of(new BenchMain(), subcommands());
    }
}
