package io.flinkivm.examples.testing;

import io.flinkivm.examples.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;

/** One run of the whole command line ({@link Main#run(PrintWriter, PrintWriter, String...)}) with captured output. */
public record CliRun(int exitCode, String out, String err) {

    public static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new CliRun(code, out.toString(), err.toString());
    }
}
