package io.flinkivm.examples.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One call of {@link Main#run(PrintWriter, PrintWriter, String...)} with captured stdout and stderr. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
