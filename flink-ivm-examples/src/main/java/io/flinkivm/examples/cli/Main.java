package io.flinkivm.examples.cli;

import io.flinkivm.examples.command.CommandLines;
import io.flinkivm.examples.command.LogLevelOption;
import io.flinkivm.examples.command.Logging;
import io.flinkivm.examples.command.Version;
import io.flinkivm.examples.jobs.ExampleJobs;
import io.flinkivm.examples.kafka.KafkaCommand;
import io.flinkivm.examples.report.FlinkClient;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code flink-ivm} command: {@code java -jar flink-ivm-examples.jar <subcommand> ...}. Subcommands
 * are registered in {@link #subcommands()} only. Exit codes: 0 success, 1 I/O error or a run that
 * could not complete, 2 bad arguments, a malformed query or an unsupported plan.
 */
@Command(
        name = "flink-ivm",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Incremental view maintenance of conjunctive queries over semiring-annotated inserts"
                    + " (p-hierarchical view trees below a Boolean border, a Boolean join above it)."
        },
        commandListHeading = "%nCommands:%n",
        footerHeading = "%n",
        footer = {
            "Without a command, flink-ivm runs the default example ('flink-ivm example').",
            "Run 'flink-ivm COMMAND --help' for a command's options and file formats.",
            "bench and soak, how flink-ivm measures itself, are in flink-ivm-bench.jar:"
                    + " 'java -jar flink-ivm-bench/target/flink-ivm-bench.jar --help'.",
            "Logs (on stderr): warnings from Flink, info from flink-ivm; --log-level LEVEL (or" + " -D"
                    + Logging.LEVEL_PROPERTY + "=LEVEL) turns Flink's up, e.g. --log-level info.",
            "Exit codes: 0 success, 1 I/O error, 2 bad arguments, malformed query or unsupported plan."
        })
public final class Main implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    LogLevelOption logLevel;

    /** The subcommands, in the order the usage lists them; a new subcommand is added here and nowhere else. */
    static List<Object> subcommands() {
        return List.of(new ExplainCommand(), new RunCommand(), new ExampleCommand(), new KafkaCommand());
    }

    /** Without a subcommand: runs the default example (the README's first command), as {@code example} would. */
    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        out.println("No command given: running the default example ('flink-ivm example " + ExampleJobs.DEFAULT
                + "'). 'flink-ivm --help' lists the commands.");
        out.println();
        out.flush();
        return spec.commandLine().getSubcommands().get("example").execute();
    }

    /**
     * Runs the command line and exits with its code. Under a Flink client ({@code flink run}, the web UI, the
     * REST API, which runs {@code main} inside the JobManager) it never calls {@code System.exit}: it returns on
     * success and throws otherwise, with what the command said on stderr, so that the client reports the failure.
     */
    public static void main(String[] args) throws Exception {
        if (!FlinkClient.runsThisProgram()) {
            System.exit(run(args));
        }
        StringWriter err = new StringWriter();
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter tee = new PrintWriter(new Writer() {
            private final Writer stderr = new OutputStreamWriter(System.err, StandardCharsets.UTF_8);

            @Override
            public void write(char[] buffer, int offset, int length) throws IOException {
                stderr.write(buffer, offset, length);
                err.write(buffer, offset, length);
            }

            @Override
            public void flush() throws IOException {
                stderr.flush();
            }

            @Override
            public void close() throws IOException {
                stderr.flush();
            }
        });
        int code = run(out, tee, args);
        if (code != 0) {
            throw new ProgramFailedException(code, err.toString().strip());
        }
    }

    /** The command line ended with a non-zero exit code under a Flink client, which must not exit the JVM. */
    static final class ProgramFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ProgramFailedException(int code, String stderr) {
            super("flink-ivm ended with exit code " + code + (stderr.isEmpty() ? "" : ": " + stderr));
        }
    }

    /** Runs the command line with stdout and stderr (as UTF-8) and returns the exit code. */
    public static int run(String... args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        return run(out, err, args);
    }

    /** Runs the command line with the given streams and returns the exit code; never calls System.exit. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        return CommandLines.run(commandLine(), out, err, args);
    }

    /** The configured command line with every subcommand. */
    public static CommandLine commandLine() {
        return CommandLines.of(new Main(), subcommands());
    }
}
