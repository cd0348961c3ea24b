package io.flinkivm.examples.command;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * A top-level command with its subcommands, as the {@code flink-ivm} and {@code flink-ivm-bench} commands run:
 * a bad argument prints the message and a hint and exits with {@link CliException#USAGE}; a {@link CliException}
 * prints its message and exits with its code; anything else is a bug, printed with its stack trace, exit code
 * {@link CliException#FAILURE}.
 */
public final class CommandLines {

    private CommandLines() {}

    /** The command line of {@code command} with {@code subcommands}, in the order its usage lists them. */
    public static CommandLine of(Object command, List<Object> subcommands) {
        CommandLine cl = new CommandLine(command);
        for (Object subcommand : subcommands) {
            cl.addSubcommand(subcommand);
        }
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println(ex.getMessage());
            err.println(
                    "Try '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help' for more information.");
            return CliException.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            if (ex instanceof CliException c) {
                err.println(c.getMessage());
                return c.exitCode();
            }
            err.println("internal error (a bug in flink-ivm, please report it): " + ex);
            ex.printStackTrace(err);
            return CliException.FAILURE;
        });
        return cl;
    }

    /** Runs {@code cl} with the given streams and returns the exit code; never calls System.exit. */
    public static int run(CommandLine cl, PrintWriter out, PrintWriter err, String... args) {
        cl.setOut(out);
        cl.setErr(err);
        try {
            return cl.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }
}
