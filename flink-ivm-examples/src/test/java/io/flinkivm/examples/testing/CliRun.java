package io.flinkivm.examples.testing;

import io.flinkivm.examples.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One run of a whole command line with captured output: {@code flink-ivm}'s
 * ({@link Main#run(PrintWriter, PrintWriter, String...)}) or another with the same signature.
 */
public record CliRun(int exitCode, String out, String err) {

    /** A command line's {@code run(out, err, args)}, which returns the exit code. */
    @FunctionalInterface
    public interface CommandLineRun {
        int run(PrintWriter out, PrintWriter err, String... args);
    }

    /** A run of {@code flink-ivm}. */
    public static CliRun of(String... args) {
        return of(Main::run, args);
    }

    /** A run of {@code commandLine}. */
    public static CliRun of(CommandLineRun commandLine, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = commandLine.run(new PrintWriter(out), new PrintWriter(err), args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
