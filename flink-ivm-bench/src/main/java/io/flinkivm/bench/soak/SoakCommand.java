package io.flinkivm.bench.soak;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.core.window.WindowSpec;
import io.flinkivm.examples.command.CliException;
import io.flinkivm.examples.command.Converters;
import io.flinkivm.examples.command.FlinkOptions;
import io.flinkivm.examples.command.OptionDefaults;
import io.flinkivm.examples.command.QueryTextOptions;
import io.flinkivm.examples.command.Version;
import io.flinkivm.examples.jobs.Ex10Job;
import io.flinkivm.examples.jobs.FlinkSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.FileUtils;
import org.apache.flink.util.TimeUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Visibility;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code soak}: a bounded soak of the Flink job with checkpoints, measured per tenth and checked at the end. */
@Command(
        name = "soak",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        sortOptions = false,
        showDefaultValues = true,
        defaultValueProvider = SoakCommand.Defaults.class,
        header = "Runs a long generated stream through the Flink job with checkpoints and reports how it held up.",
        description = {
            "Generates --inserts inserts for the query's relations, runs them through flink-ivm's"
                    + " operators on the embedded local Flink with checkpoints every --checkpoint-interval, and"
                    + " prints, per tenth of the stream, the throughput (inserts fully processed by the sink per"
                    + " second), the checkpoints that completed (count, median and maximum duration, full state"
                    + " size, bytes written), all from Flink's own checkpoint statistics (its REST API). It closes"
                    + " with the ratio of the last tenth's throughput to the first's, the checkpoint durations and"
                    + " the state size; the state at the end by operator and state (one more checkpoint of the"
                    + " final state, RocksDB's column families after its flush); the time to restore a savepoint"
                    + " taken after the first tenth and the last checkpoint, each by starting a new job from it"
                    + " (Flink's task timestamps, INITIALIZING to RUNNING); and checks the final result against the"
                    + " in-memory engine of flink-ivm-core on the same stream.",
            "The stream: each insert picks a relation uniformly; free variables have n/200 values (uniform or"
                    + " Zipf with exponent " + SoakStream.ZIPF_EXPONENT + "), bound variables of several atoms "
                    + SoakStream.SHARED_BOUND_DOMAIN + ", the others " + SoakStream.LOCAL_DOMAIN + "; small payloads.",
            "The domain grows by default (see --domain): the work each insert causes is then the same all along"
                    + " the stream and only the state grows, so a falling throughput is the system's doing. With"
                    + " --domain fixed the work per insert itself rises as the views fill (early inserts mostly"
                    + " join nothing), which lowers the throughput by construction.",
            "Checkpoints go to a temporary directory, deleted at the end, unless --checkpoint-dir is given."
        },
        footerHeading = "%nExit codes:%n",
        footer = {
            "  0  the soak ran and the result matched the in-memory engine's",
            "  1  the Flink job failed, or its result differs from the in-memory engine's",
            "  2  bad option, malformed query, unknown semiring, unsupported plan"
        })
public final class SoakCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = "--inserts",
            paramLabel = "N",
            defaultValue = "10000000",
            description = {"Number of generated inserts."})
    long inserts;

    @Mixin
    QueryTextOptions query;

    @Option(
            names = "--semiring",
            paramLabel = "SEMIRING",
            defaultValue = "natural",
            converter = Converters.SemiringConverter.class,
            description = {"The payload semiring (see 'run --help')."})
    Semiring<?> semiring;

    @Mixin
    FlinkOptions flinkOptions;

    @Option(
            names = "--distribution",
            paramLabel = "D",
            defaultValue = "uniform",
            description = {"Values of the free variables: uniform or zipf."})
    String distribution;

    @Option(
            names = "--domain",
            paramLabel = "KIND",
            description = {
                "Domain of the free variables: growing (insert i draws from the first i/200 of the n/200"
                        + " values: the chance that an insert joins stays the same, so the work per insert is"
                        + " stationary; uniform only), sliding (the newest " + SoakStream.LIVE_VALUES + " of"
                        + " those: keys come and go, as auctions that take bids while they run; uniform only) or"
                        + " fixed (all n/200 values from the first insert on). Default: growing, fixed with"
                        + " --distribution zipf."
            })
    String domain;

    @Option(
            names = "--window",
            paramLabel = "SPEC",
            description = {
                "Windows every relation on its rows' last column, the insert's event time: tumble:SIZE,"
                        + " hop:SLIDE:SIZE or cumulate:STEP:SIZE (e.g. tumble:10s, hop:2s:10s). Every atom then ends"
                        + " with the same two variables, window_start and window_end, and the head holds the window,"
                        + " e.g. 'Q(W,S) :- bid(A,P,T,W,E), auction(A,S,U,W,E)'. The job emits each window's groups"
                        + " once, final, and drops the window's state; the check compares window by window."
            })
    String window;

    @Option(
            names = "--event-rate",
            paramLabel = "N",
            defaultValue = "100000",
            description = {"With --window: inserts per second of event time, over the whole stream."})
    long eventRate;

    @Option(
            names = "--disorder",
            paramLabel = "DURATION",
            defaultValue = "1 s",
            description = {
                "With --window: how far an insert's event time may trail the largest before it (a jitter"
                        + " drawn per insert); the watermarks trail by as much, so no insert is late."
            })
    String disorder;

    @Option(
            names = "--seed",
            paramLabel = "X",
            defaultValue = "1",
            description = {"Seed of the generator."})
    long seed;

    @Option(
            names = "--rate",
            paramLabel = "N",
            defaultValue = "0",
            description = {
                "Inserts per second over all source subtasks (0: as fast as the job takes them). A checkpoint"
                        + " holds the state changed since the one before, so its size follows the input rate:"
                        + " compare checkpoint sizes at the same rate, e.g. the rate of a production job."
            })
    long rate;

    @Option(
            names = "--flink-conf",
            paramLabel = "KEY=VALUE",
            showDefaultValue = Visibility.NEVER,
            description = {
                "A Flink configuration entry set over the soak's own, e.g."
                        + " state.backend.rocksdb.compaction.style=LEVEL to compare RocksDB settings; repeatable."
            })
    Map<String, String> flinkConf = new LinkedHashMap<>();

    @Option(
            names = "--series",
            paramLabel = "FILE",
            description = {
                "Writes the checkpoints as a CSV time series (" + SoakSeries.HEADER + "), which soak-plot draws."
            })
    Path series;

    private MemorySize managed;

    @Option(
            names = "--managed-memory",
            paramLabel = "SIZE",
            defaultValue = SoakCommand.MANAGED_MEMORY,
            description = {
                "Managed memory of the embedded TaskManager, where RocksDB keeps its block cache and"
                        + " memtables (Flink's local default is 128 MiB; a cluster's TaskManager gets a fraction of its"
                        + " memory, 0.4 by default), e.g. 512 mb or 2 gb."
            })
    String managedMemory;

    /** The soak's own defaults: it measures RocksDB with incremental checkpoints on Ex. 10. */
    static final class Defaults extends OptionDefaults {
        Defaults() {
            super(Map.of("--query", Ex10Job.QUERY, "--state", "rocksdb", "--checkpoint-interval", "3 s"));
        }
    }

    /** The soak's managed memory: room for RocksDB to cache the 10^7-insert state (about 120 MiB on disk). */
    static final String MANAGED_MEMORY = "1 gb";

    @Override
    public Integer call() {
        if (inserts < 1) {
            throw CliException.usage("--inserts must be at least 1, got " + inserts);
        }
        if (rate < 0) {
            throw CliException.usage("--rate must be 0 (no limit) or a number of inserts per second, got " + rate);
        }
        if (flinkOptions.checkpointsOff()) {
            throw CliException.usage("--checkpoint-interval must be positive: the soak measures checkpoints");
        }
        try {
            managed = MemorySize.parse(managedMemory);
        } catch (IllegalArgumentException e) {
            throw CliException.usage(
                    "--managed-memory: not a memory size: '" + managedMemory + "' (e.g. 512 mb, 1 gb)");
        }
        String d = distribution.toLowerCase(Locale.ROOT);
        if (!d.equals("uniform") && !d.equals("zipf")) {
            throw CliException.usage("--distribution must be uniform or zipf, got '" + distribution + "'");
        }
        ConjunctiveQuery q = query.parse(CliException::usage);
        MaintenancePlan plan = query.plan(q, semiring, CliException::usage);
        String k = domain == null ? (d.equals("zipf") ? "fixed" : "growing") : domain.toLowerCase(Locale.ROOT);
        if (!k.equals("fixed") && !k.equals("growing") && !k.equals("sliding")) {
            throw CliException.usage("--domain must be fixed, growing or sliding, got '" + domain + "'");
        }
        if (!k.equals("fixed") && d.equals("zipf")) {
            throw CliException.usage(
                    "--domain " + k + " draws uniformly; it cannot be combined with --distribution zipf");
        }
        for (String key : flinkConf.keySet()) {
            if (key.isBlank()) {
                throw CliException.usage("--flink-conf needs KEY=VALUE, got an empty key");
            }
        }
        SoakWindows windows = window == null ? null : windows(q);
        return soak(plan, semiring, d.equals("zipf"), SoakStream.Domain.valueOf(k.toUpperCase(Locale.ROOT)), windows);
    }

    /** The windows of {@code --window}, {@code --event-rate} and {@code --disorder} over {@code q}. */
    private SoakWindows windows(ConjunctiveQuery q) {
        if (eventRate < 1) {
            throw CliException.usage("--event-rate must be at least 1 insert per second, got " + eventRate);
        }
        Duration late;
        try {
            late = TimeUtils.parseDuration(disorder);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--disorder: not a duration: '" + disorder + "' (e.g. 1 s, 500 ms)");
        }
        // The source's parallelism: the embedded Flink's default is one subtask per core.
        Integer p = flinkOptions.parallelism();
        int parallelism = p != null ? p : Runtime.getRuntime().availableProcessors();
        EventClock clock = new EventClock(inserts, parallelism, eventRate, late.toMillis());
        try {
            return SoakWindows.of(q, windowSpec(window), clock);
        } catch (IllegalArgumentException e) {
            throw CliException.usage("--window: " + e.getMessage());
        }
    }

    /** {@code tumble:SIZE}, {@code hop:SLIDE:SIZE} or {@code cumulate:STEP:SIZE}. */
    static WindowSpec windowSpec(String text) {
        String[] parts = text.trim().split("\\s*:\\s*");
        String kind = parts[0].toLowerCase(Locale.ROOT);
        int durations = kind.equals("tumble") ? 1 : kind.equals("hop") || kind.equals("cumulate") ? 2 : -1;
        if (durations < 0 || parts.length != durations + 1) {
            throw new IllegalArgumentException("expected tumble:SIZE, hop:SLIDE:SIZE or cumulate:STEP:SIZE (e.g."
                    + " tumble:10s), got '" + text + "'");
        }
        Duration[] d = new Duration[durations];
        for (int i = 0; i < durations; i++) {
            try {
                d[i] = TimeUtils.parseDuration(parts[i + 1]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("not a duration: '" + parts[i + 1] + "' in '" + text + "'");
            }
        }
        return switch (kind) {
            case "tumble" -> WindowSpec.tumble(d[0]);
            case "hop" -> WindowSpec.hop(d[0], d[1]);
            default -> WindowSpec.cumulate(d[0], d[1]);
        };
    }

    private <T> int soak(
            MaintenancePlan plan, Semiring<T> s, boolean zipf, SoakStream.Domain kind, SoakWindows windows) {
        PrintWriter out = spec.commandLine().getOut();
        SoakStream<T> stream =
                new SoakStream<>(plan.query(), s, inserts, zipf, kind, windows == null ? null : windows.clock(), seed);
        boolean temporary = flinkOptions.checkpointDir() == null;
        Path dir = null;
        if (temporary) {
            try {
                dir = Files.createTempDirectory("flink-ivm-soak-");
            } catch (IOException e) {
                throw CliException.failure("cannot create a checkpoint directory: " + CliException.describe(e), e);
            }
        }
        FlinkSettings settings = flinkOptions.settings();
        FlinkSettings flink =
                temporary ? settings.withCheckpoints(dir.toString(), settings.checkpointInterval()) : settings;
        out.printf(
                Locale.ROOT,
                "flink-ivm soak: %s over %s (%s plan)%n",
                plan.query(),
                s.name(),
                Converters.cliName(plan.kind()));
        out.printf(
                Locale.ROOT,
                "Data: %,d generated inserts, %s values of the free variables, seed %d%s%n",
                inserts,
                (zipf ? "Zipf (s = " + SoakStream.ZIPF_EXPONENT + ")" : "uniform")
                        + switch (kind) {
                            case GROWING -> " over a domain growing with the stream";
                            case SLIDING ->
                                " over the newest " + SoakStream.LIVE_VALUES + " of a domain growing with the stream";
                            case FIXED -> "";
                        },
                seed,
                rate > 0 ? String.format(Locale.ROOT, ", at most %,d inserts/s", rate) : "");
        if (windows != null) {
            out.println("Windows: " + windows.describe());
        }
        out.flush();
        SoakReport report;
        try {
            report = SoakRun.run(plan, s, stream, windows, flink, managed, flinkConf, rate, out);
        } catch (Exception e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            throw CliException.failure("the soak's Flink job failed: " + root, e);
        } finally {
            if (temporary) {
                deleteTree(dir);
            }
        }
        if (series != null) {
            try {
                SoakSeries.write(series, report);
                out.println("Series: " + series);
            } catch (IOException e) {
                throw CliException.failure("cannot write " + series + ": " + CliException.describe(e), e);
            }
        }
        if (!report.matchesEngine()) {
            throw CliException.failure("the soak's result differs from the in-memory engine's", null);
        }
        return 0;
    }

    private static void deleteTree(Path dir) {
        // Quietly: a temporary directory left behind does not matter, the soak's figures are printed already.
        FileUtils.deleteDirectoryQuietly(dir.toFile());
    }
}
