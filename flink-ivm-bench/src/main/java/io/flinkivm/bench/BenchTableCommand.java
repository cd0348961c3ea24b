package io.flinkivm.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code bench-table}: bench runs' results.csv as the markdown rows of docs/benchmarks.md's current figures. */
@Command(
        name = "bench-table",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpWidth = 100,
        header = "Prints the Flink figures of bench runs' results.csv as a markdown table.",
        description = {
            "Reads the results.csv files of one or more bench runs and prints one markdown row per workload, n, P,"
                    + " object reuse and system: its ns per row (the median of its timed runs: run bench with"
                    + " --flink-reps 3 for medians of three; a row with fewer runs than the others says so), its task"
                    + " CPU per row, and on a peer's row flink-ivm's speed-up against it: the peer's ns per row over"
                    + " flink-ivm's on the same state backend (above 1: flink-ivm is faster), in brackets the peer's task"
                    + " CPU per row over flink-ivm's. '>' marks a bound (a run stopped at its cap), and a ratio with a"
                    + " bound is a bound. By default each workload and distribution at its largest n.",
        },
        footerHeading = "%nExit codes:%n",
        footer = {
            "  0  the table was printed",
            "  1  a file could not be read or is not a results.csv",
            "  2  bad option"
        })
public final class BenchTableCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(
            paramLabel = "RESULTS_CSV",
            arity = "1..*",
            description = {"results.csv files of bench runs (each figure in one of them)."})
    List<Path> files;

    @Option(
            names = "--n",
            paramLabel = "N",
            defaultValue = "0",
            description = {"Only rows at this n (default: each workload's largest)."})
    int n;

    @Option(
            names = "--systems",
            paramLabel = "S",
            split = ",",
            description = {
                "Only these systems, by their name in results.csv (default: every flink-ivm and Flink SQL system,"
                        + " those whose name starts with flink-)."
            })
    List<String> systems;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (n < 0) {
            err.println("--n must not be negative (0: each workload's largest n)");
            return 2;
        }
        try {
            List<BenchTable.Row> rows =
                    BenchTable.read(files, s -> systems == null ? s.startsWith("flink-") : systems.contains(s), n);
            if (rows.isEmpty()) {
                err.println("no Flink figures in " + files + (n > 0 ? " at n = " + n : ""));
                return 1;
            }
            BenchTable.markdown(rows).forEach(out::println);
            out.flush();
            return 0;
        } catch (IOException e) {
            err.println("cannot read " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return 1;
        }
    }
}
