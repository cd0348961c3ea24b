package io.flinkivm.bench.soak;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code soak-plot}: soaks' checkpoint series ({@code soak --series}) drawn into one PNG. */
@Command(
        name = "soak-plot",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpWidth = 100,
        header = "Draws soaks' checkpoint series into one PNG.",
        description = {
            "Reads the CSV files that soak --series wrote and draws, against the inserts processed, each"
                    + " checkpoint's full state size and what it wrote, one line per file, labelled as given"
                    + " (LABEL=FILE)."
        },
        footerHeading = "%nExit codes:%n",
        footer = {
            "  0  the plot was written",
            "  1  a file could not be read or written, or is not a soak series",
            "  2  bad option"
        })
public final class SoakPlotCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(
            paramLabel = "LABEL=FILE",
            arity = "1..*",
            description = {"A label for the legend and a series file, e.g. 'windowed=windowed.csv'."})
    List<String> series;

    @Option(
            names = "--out",
            paramLabel = "PNG",
            required = true,
            description = {"The PNG file to write."})
    Path out;

    @Option(
            names = "--title",
            paramLabel = "TEXT",
            defaultValue = "flink-ivm soak: state and checkpoints against inserts processed",
            description = {"The plot's title."})
    String title;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Map<String, List<SoakSeries.Point>> read = new LinkedHashMap<>();
        for (String s : series) {
            int eq = s.indexOf('=');
            if (eq <= 0 || eq == s.length() - 1) {
                err.println("expected LABEL=FILE, got '" + s + "'");
                return 2;
            }
            try {
                read.put(s.substring(0, eq), SoakSeries.read(Path.of(s.substring(eq + 1))));
            } catch (IOException e) {
                err.println("cannot read " + s.substring(eq + 1) + ": " + e.getMessage());
                return 1;
            }
        }
        try {
            SoakPlot.write(read, title, out);
        } catch (IOException e) {
            err.println("cannot write " + out + ": " + e.getMessage());
            return 1;
        }
        spec.commandLine().getOut().println("Wrote " + out);
        return 0;
    }
}
