package io.flinkivm.examples.cli;

import io.flinkivm.examples.command.CliException;
import io.flinkivm.examples.command.FlinkOptions;
import io.flinkivm.examples.command.Version;
import io.flinkivm.examples.jobs.ExampleJob;
import io.flinkivm.examples.jobs.ExampleJobs;
import io.flinkivm.examples.jobs.ExampleRunner;
import io.flinkivm.examples.jobs.GeneratorSettings;
import java.io.PrintWriter;
import java.util.Iterator;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code example}: runs one of the built-in example jobs on generated data (see {@link ExampleJobs}). */
@Command(
        name = "example",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        sortOptions = false,
        header = "Runs a built-in example job on generated data.",
        description = {
            "Generates a stream of inserts, prints the maintenance plan, runs the job on the embedded local"
                    + " Flink (or on the cluster under 'flink run') with a prefix-exact snapshot every tenth of the"
                    + " stream, prints each snapshot's size and the inserts per second since the previous one, and"
                    + " closes with a summary and the first result rows. 'flink-ivm' without a command runs the"
                    + " default example. 'example --list' describes the examples.",
            "Submitted detached (flink run -d, the web UI, the REST API's /jars/:id/run), it returns once the job"
                    + " is submitted; the job reports itself: its accumulators hold the final snapshot's id, rows"
                    + " and checksum, and with --result-dir it writes the rows and dead letters there."
        },
        footerHeading = "%nExit codes:%n",
        footer = {
            "  0  the example ran (or, detached, was submitted)",
            "  1  the Flink job failed",
            "  2  unknown example or bad option"
        })
final class ExampleCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "NAME",
            defaultValue = ExampleJobs.DEFAULT,
            completionCandidates = Names.class,
            description = {"The example: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}."})
    String name;

    @Option(
            names = "--inserts",
            paramLabel = "N",
            description = {"Number of generated inserts. Default: the example's own (a run of a few seconds)."})
    Long inserts;

    @Option(
            names = "--skew",
            paramLabel = "S",
            defaultValue = "0",
            description = {
                "Key skew of the join keys: 0 for uniform, otherwise the exponent of a Zipf"
                        + " distribution (1 is already skewed; 2 concentrates most inserts on a few keys)."
                        + " Default: ${DEFAULT-VALUE}."
            })
    double skew;

    @Option(
            names = "--seed",
            paramLabel = "X",
            defaultValue = "1",
            description = {
                "Seed of the generator: the same seed and sizes give the same stream. Default: ${DEFAULT-VALUE}."
            })
    long seed;

    @Mixin
    FlinkOptions flinkOptions;

    @Mixin
    ResultDirOption resultDir;

    @Option(
            names = "--list",
            description = {"List the examples and exit."})
    boolean list;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (list) {
            for (ExampleJob<?> j : ExampleJobs.all()) {
                out.printf("%-12s %s%n", j.name(), j.title());
            }
            out.flush();
            return 0;
        }
        ExampleJob<?> job;
        try {
            job = ExampleJobs.byName(name);
        } catch (IllegalArgumentException e) {
            throw CliException.usage(e.getMessage());
        }
        GeneratorSettings data;
        try {
            data = new GeneratorSettings(inserts == null ? job.defaultInserts() : inserts, skew, seed);
        } catch (IllegalArgumentException e) {
            throw CliException.usage(
                    e.getMessage().replace("inserts must", "--inserts must").replace("skew must", "--skew must"));
        }
        run(job, data);
        return 0;
    }

    private <T> void run(ExampleJob<T> job, GeneratorSettings data) {
        try {
            ExampleRunner.run(
                    job,
                    data,
                    flinkOptions.settings(),
                    resultDir.uri(),
                    spec.commandLine().getOut(),
                    spec.commandLine().getErr());
        } catch (CliException e) {
            throw e;
        } catch (Exception e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            throw CliException.failure("the Flink job of example '" + job.name() + "' failed: " + root, e);
        }
    }

    /** The registered example names, for the usage. */
    static final class Names implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return ExampleJobs.names().iterator();
        }
    }
}
