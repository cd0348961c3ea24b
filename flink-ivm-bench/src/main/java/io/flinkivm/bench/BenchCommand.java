package io.flinkivm.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.PipelineOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code bench}: measures flink-ivm against its peers and writes DIR/results.csv. */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpWidth = 100,
        header = "Measures flink-ivm against its peers on generated streams and writes results.csv and plot.png.",
        description = {
            "Generates seeded insert streams for four queries over the natural numbers and runs every system of the"
                    + " chosen suites on the same streams:",
            "  ex10   the paper's Ex. 10, Q(A,C) :- R1(A,B,D,E), R2(A,B,D,F), R3(A,B,G), R4(C), R5(A,C,H)"
                    + " (p-hierarchical, not q-hierarchical); uniform and Zipf (s = 1.1) keys",
            "  tpch   revenue per (order, customer) of BUILDING customers over TPC-H rows from the TPC-H generator,"
                    + " scale factor chosen from n (p-hierarchical, not q-hierarchical)",
            "  star   Q(A,B) :- R(A,B,C), S(A,B,C), T(A,D) (q-hierarchical); uniform and Zipf",
            "  path   Q(A,C) :- R(A,B), S(B,C) (not p-hierarchical: the fallback's honest cost); uniform and Zipf",
            "and, in the flink suite, the same queries over changelogs: n changes, 20%% deletes and 20%% updates (-U/+U)"
                    + " of live rows, the rest inserts; flink-ivm over the integer ring, every relation a changelog;"
                    + " Flink SQL through fromChangelogStream:",
            "  star-changes  star's query and stream (q-hierarchical: O(1) per change)",
            "  tpch-changes  tpch's query and rows (not q-hierarchical: the fallback's delta joins under deletes)",
            "and SQL datasets: a SQL text run as it is by flink-ivm (FlinkIvmSql.sql) and by Flink SQL,"
                    + " over generated tables whose primary keys hold, their rows shuffled into one stream of n rows:",
            "  tpch-q3, tpch-q10  TPC-H Q3 and Q10 as published (ORDER BY and LIMIT dropped) over TPC-H rows",
            "  star-revenue       revenue per market segment over lineitem, orders and customer (TPC-H rows)",
            "  snowflake          MIN of a product name and SUM of sales per customer segment over sales and four"
                    + " filtered dimensions, one with a dimension of its own (a seeded generator's rows)",
            "  nexmark-q3, nexmark-q20  Nexmark q3 and q20 as published over a seeded Nexmark generator's rows",
            "  bids-per-window    bids and the top price per auction per 10 s TUMBLE window over Nexmark's bids in"
                    + " event order, a watermark 5 s behind (Flink SQL: a window aggregate)",
            "Suites:",
            "  core   ns per insert of the in-memory engines: the p-hierarchical plan, the paper's ablation (the same"
                    + " semiring above the border) and the fallback delta joins, and of hash-map (one HashMap upsert per"
                    + " insert, the memory-hierarchy peer); n = 10^4 .. 10^7 (ablation and fallback up to 10^6;"
                    + " --quick: 10^4, 10^5); median of up to --reps runs after warm-up; then the"
                    + " enumeration of the full result (payload recovery; with the engine's iterator and with its"
                    + " cursor) against reading a plain list; and, from a"
                    + " separate untimed run over the same inserts whose hash maps count (completed runs up to"
                    + " --count-up-to), the state operations per insert"
                    + " (keys read or written in the join views, root views, Boolean join, delta joins and result) with"
                    + " the timed ns per state operation against hash-map's ns per upsert.",
            "  changelog  a changelog trigger against a snapshot: Q(A,C) :- R(A,B), S(A,C) with a result of 10^6"
                    + " tuples (--quick: 10^5) in the in-memory engine with a changelog, triggers that each change 10^3"
                    + " result tuples (one insert into R) timed against enumerating the whole result; every trigger's"
                    + " rows are checked to be exactly the changed tuples.",
            "  flink  inserts per second, wall time of each job (submission included) on a local cluster started once:"
                    + " the flink-ivm job on heap and RocksDB, the query in Flink SQL (plain, with mini-batch and two-phase"
                    + " aggregation, with table.optimizer.multi-join.enabled where the plan has a MultiJoin, and on RocksDB"
                    + " plain and with mini-batch; its tables with the keys the data has, read as flink-ivm reads its"
                    + " input: records built before the job), and jobs that only forward each insert through as many"
                    + " keyBy hops and through two; each at every"
                    + " --parallelism P (default 1), with the serial share of the task threads' CPU, Amdahl's bound and the"
                    + " most imbalanced chain above P = 1; n = 10^4 .. 10^6 for the first"
                    + " distribution, up to 10^5 for Zipf (--quick: 10^4, the first distribution). Every result is checked"
                    + " against the core engine's; a disagreement aborts the bench. Then the SQL datasets at the same"
                    + " sizes, by flink-ivm on heap and RocksDB, Flink SQL plain and with mini-batch on heap and RocksDB, each result"
                    + " checked against the first system's (size and a checksum of the rows).",
            "A run that exceeds its cap is stopped and reported as a bound ('>' ns per insert, '<' inserts per second);"
                    + " the system is then not run at the larger sizes of that query and distribution (at that P). To run"
                    + " peers uncapped once at one size: --sizes N --flink-cap SECONDS with a cap above their time."
        },
        footerHeading = "%nOutput:%n",
        footer = {
            "  DIR/results.csv, one row per system, query, distribution and n:",
            "      " + ResultsCsv.HEADER,
            "    A bound carries '>' or '<' before the number; state_size is empty where it is not measured. measure is"
                    + " 'insert' (the figures are per insert) or 'enumerate' (per result tuple, enumerated after the"
                    + " stream; state_size is the number of result tuples). state_ops_per_insert: the core suite's"
                    + " state operations per insert (1 for hash-map's upsert; for flink-ivm on a changelog workload,"
                    + " per change, core's engine for the same plan), empty where not counted. parallelism: the"
                    + " Flink job's P (1 for the core engines); serial_share: CPU of its task threads in chains at parallelism"
                    + " 1 / CPU of all its task threads; max_subtask_imbalance: max/mean subtask CPU of its most uneven chain"
                    + " at parallelism > 1 (with at least 5%% of the task CPU); both empty where not measured.",
            "  DIR/plot.png: ns per insert against n, log-log, one panel per query and distribution, one line per system"
                    + " (a Flink system at its smallest P); hollow markers are bounds (the run was stopped at its cap).",
            "  The same figures are printed as tables with ratio and slope lines.",
            "",
            "Exit codes:",
            "  0  all suites ran",
            "  1  a result check failed or a run could not complete (the message says which)",
            "  2  bad option"
        })
public final class BenchCommand implements Callable<Integer> {
    static final long DEFAULT_CORE_CAP = 10;
    /** {@code --quick}: 2 s (the subject and its peer 10 s); at 5 s the stopped runs took a fifth of the quick run. */
    static final long QUICK_CORE_CAP = 2;

    static final long DEFAULT_FLINK_CAP = 15;
    static final long QUICK_FLINK_CAP = 8;
    /** The largest --parallelism: the cluster's slots, each with 128 MB managed and 64 MB network memory. */
    static final int MAX_PARALLELISM = 16;

    @Spec
    CommandSpec spec;

    @Option(
            names = "--quick",
            description = {
                "A smoke check of every suite in about three minutes on 2 cores: core 10^4 and 10^5, changelog a"
                        + " result of 10^5 tuples, flink every system on every workload and SQL dataset at 10^4 (the"
                        + " first distribution only, warm-up on 10^3, state calls of the first workload); caps "
                        + QUICK_CORE_CAP + " s and "
                        + QUICK_FLINK_CAP + " s."
            })
    boolean quick;

    @Option(
            names = "--suite",
            paramLabel = "core|changelog|flink|all",
            defaultValue = "all",
            description = {"The suite to run (all: core, changelog, flink). Default: ${DEFAULT-VALUE}."})
    String suite;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            defaultValue = "bench-out",
            description = {"Directory for results.csv and plot.png (created if missing). Default: ${DEFAULT-VALUE}."})
    Path out;

    @Option(
            names = "--seed",
            paramLabel = "SEED",
            defaultValue = "" + BenchSettings.DEFAULT_SEED,
            description = {"Seed of the stream generator. Default: ${DEFAULT-VALUE}."})
    long seed;

    @Option(
            names = "--reps",
            paramLabel = "R",
            defaultValue = "3",
            description = {"Timed runs per core measurement (the median is reported). Default: ${DEFAULT-VALUE}."})
    int reps;

    @Option(
            names = "--flink-reps",
            paramLabel = "R",
            defaultValue = "1",
            description = {"Timed runs per Flink measurement. Default: ${DEFAULT-VALUE}."})
    int flinkReps;

    @Option(
            names = "--core-cap",
            paramLabel = "SECONDS",
            description = {
                "Stop a core run after this many seconds. Default: " + DEFAULT_CORE_CAP + " (--quick: " + QUICK_CORE_CAP
                        + ")."
            })
    Long coreCap;

    @Option(
            names = "--flink-cap",
            paramLabel = "SECONDS",
            description = {
                "Cancel a Flink job after this many seconds (flink-ivm jobs on a p-hierarchical query: "
                        + FlinkSuite.IVM_CAP_FACTOR + " times as long). Default: " + DEFAULT_FLINK_CAP + " (--quick: "
                        + QUICK_FLINK_CAP + ")."
            })
    Long flinkCap;

    @Option(
            names = "--count-up-to",
            paramLabel = "N",
            defaultValue = "" + BenchSettings.DEFAULT_COUNT_UP_TO,
            description = {
                "Count the state operations of the core runs up to this n (a completed run only; the counting"
                        + " run is untimed and takes about as long as the timed one). Default: ${DEFAULT-VALUE}."
            })
    int countUpTo;

    @Option(
            names = "--sql-trigger-every",
            paramLabel = "N",
            defaultValue = "10000",
            description = {
                "The SQL datasets' flink-ivm views: a changelog trigger after every N rows of each ingest"
                        + " subtask, as a view maintained for readers would have (the cadence of the quick starts'"
                        + " withSnapshotEvery(10_000); Flink SQL's mini-batch emits after 5,000 rows or 2 s)."
                        + " Default: ${DEFAULT-VALUE}; 0: one trigger at the end of the input."
            })
    long sqlTriggerEvery;

    @Option(
            names = "--sizes",
            paramLabel = "N",
            split = ",",
            description = {"Stream sizes that replace every suite's own, e.g. 1000,10000 (for quick experiments)."})
    List<Integer> sizes;

    @Option(
            names = "--distributions",
            paramLabel = "D",
            split = ",",
            defaultValue = "uniform,zipf",
            converter = DistributionConverter.class,
            description = {"Key distributions to measure: uniform, zipf or both. Default: ${DEFAULT-VALUE}."})
    List<Distribution> distributions;

    @Option(
            names = "--queries",
            paramLabel = "Q",
            split = ",",
            description = {
                "Only these queries: ex10, tpch, star, path, the changelog workloads star-changes, tpch-changes"
                        + " (flink suite), and the SQL datasets tpch-q3, tpch-q10, star-revenue, snowflake, nexmark-q3,"
                        + " nexmark-q20, bids-per-window"
                        + " (for quick experiments and profiling)."
            })
    List<String> queries;

    @Option(
            names = "--parallelism",
            paramLabel = "P",
            split = ",",
            defaultValue = "1",
            description = {
                "Parallelisms of every Flink job, e.g. 1,2,4: each Flink system runs at each (one task manager"
                        + " with as many slots as the largest, each slot with a 1-slot cluster's memory). Default: ${DEFAULT-VALUE}."
            })
    List<Integer> parallelisms;

    @Option(
            names = "--systems",
            paramLabel = "S",
            split = ",",
            description = {"Only these systems, by their name in results.csv (e.g. flink-ivm-heap,trivial-keyed)."})
    List<String> systemNames;

    @Option(
            names = "--object-reuse",
            paramLabel = "on|off",
            defaultValue = "off",
            description = {
                "Flink's object reuse (pipeline.object-reuse) in every Flink job, flink-ivm's and the peers' alike:"
                        + " on, chained operators pass records on without copying them. Default: ${DEFAULT-VALUE}"
                        + " (Flink's default); results.csv says which was used."
            })
    String objectReuse;

    @Option(
            names = "--flink-conf",
            paramLabel = "KEY=VALUE",
            description = {
                "A Flink configuration entry set over the bench's own in every Flink job (flink-ivm's and the"
                        + " peers'), e.g. state.backend.rocksdb.log.level=INFO_LEVEL to read RocksDB's log; repeatable."
            })
    Map<String, String> flinkConf = new LinkedHashMap<>();

    @Override
    public Integer call() {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        List<Suite> suites = suites(suite.toLowerCase(Locale.ROOT));
        if (suites == null) {
            stderr.println("unknown suite '" + suite + "'; use core, changelog, flink or all");
            return 2;
        }
        long coreSeconds = coreCap != null ? coreCap : quick ? QUICK_CORE_CAP : DEFAULT_CORE_CAP;
        long flinkSeconds = flinkCap != null ? flinkCap : quick ? QUICK_FLINK_CAP : DEFAULT_FLINK_CAP;
        if (reps < 1 || flinkReps < 1 || coreSeconds < 1 || flinkSeconds < 1) {
            stderr.println("--reps, --flink-reps, --core-cap and --flink-cap must be at least 1");
            return 2;
        }
        if (countUpTo < 0) {
            stderr.println("--count-up-to must not be negative (0 counts nothing)");
            return 2;
        }
        if (sizes != null && (sizes.isEmpty() || sizes.stream().anyMatch(n -> n < 1))) {
            stderr.println("--sizes must list positive numbers");
            return 2;
        }
        if (parallelisms.isEmpty() || parallelisms.stream().anyMatch(p -> p < 1 || p > MAX_PARALLELISM)) {
            stderr.println("--parallelism must list numbers from 1 to " + MAX_PARALLELISM + " (e.g. 1,2,4), not "
                    + parallelisms.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","))
                    + ": every subtask runs in this JVM, on one task manager");
            return 2;
        }
        if (sqlTriggerEvery < 0) {
            stderr.println("--sql-trigger-every must not be negative (0: one trigger at the end)");
            return 2;
        }
        if (flinkConf.keySet().stream().anyMatch(String::isBlank)) {
            stderr.println("--flink-conf needs KEY=VALUE, got an empty key");
            return 2;
        }
        Boolean reuse = onOff(objectReuse);
        if (reuse == null) {
            stderr.println("--object-reuse must be on or off, not '" + objectReuse + "'");
            return 2;
        }
        if (flinkConf.containsKey(PipelineOptions.OBJECT_REUSE.key())) {
            stderr.println("--flink-conf " + PipelineOptions.OBJECT_REUSE.key()
                    + ": use --object-reuse on|off, which sets it for every system alike and is reported");
            return 2;
        }
        FlinkRuns.overrides(flinkConf);
        BenchSettings settings = new BenchSettings(
                quick,
                seed,
                reps,
                flinkReps,
                Duration.ofSeconds(coreSeconds),
                Duration.ofSeconds(flinkSeconds),
                sizes == null ? null : new ArrayList<>(sizes),
                distributions,
                true,
                queries,
                systemNames,
                countUpTo,
                parallelisms,
                sqlTriggerEvery,
                reuse);
        try {
            run(suites, settings, out, stdout);
            return 0;
        } catch (BenchFailure e) {
            stderr.println("bench aborted: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            stderr.println("cannot write to " + out + ": " + e.getMessage());
            return 1;
        } catch (Exception e) {
            stderr.println("bench aborted: a run could not complete: " + e);
            e.printStackTrace(stderr);
            return 1;
        }
    }

    /** Parses uniform or zipf. */
    static final class DistributionConverter implements ITypeConverter<Distribution> {
        @Override
        public Distribution convert(String value) {
            for (Distribution d : List.of(Distribution.UNIFORM, Distribution.ZIPF)) {
                if (d.toString().equals(value.trim().toLowerCase(Locale.ROOT))) {
                    return d;
                }
            }
            throw new TypeConversionException("unknown distribution '" + value + "'; use uniform or zipf");
        }
    }

    /** True for on, false for off (any case), null for anything else. */
    static Boolean onOff(String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "on" -> Boolean.TRUE;
            case "off" -> Boolean.FALSE;
            default -> null;
        };
    }

    /** The suites for a {@code --suite} value, or null if it is unknown. */
    static List<Suite> suites(String name) {
        return switch (name) {
            case "core" -> List.of(CoreSuite.defaults());
            case "changelog" -> List.of(new ChangelogSuite());
            case "flink" -> List.of(FlinkSuite.defaults());
            case "all" -> List.of(CoreSuite.defaults(), new ChangelogSuite(), FlinkSuite.defaults());
            default -> null;
        };
    }

    /** Runs the suites, writing DIR/results.csv as it goes, and prints each suite's duration. */
    static List<Measurement> run(List<Suite> suites, BenchSettings settings, Path dir, PrintWriter stdout)
            throws Exception {
        FlinkRuns.objectReuse(settings.objectReuse());
        try (ResultsCsv csv = new ResultsCsv(dir, settings.objectReuse())) {
            Harness harness = new Harness(stdout, csv);
            stdout.println("object reuse: " + ResultsCsv.onOff(settings.objectReuse())
                    + " (pipeline.object-reuse in every Flink job, flink-ivm's and the peers' alike"
                    + (settings.objectReuse() ? ")" : "; Flink's default: chained operators copy each record)"));
            List<String> durations = new ArrayList<>();
            for (Suite s : suites) {
                long start = System.nanoTime();
                stdout.println("machine: " + Report.machine() + " at the start of suite " + s.name());
                s.run(harness, settings);
                stdout.println("machine: " + Report.machine() + " at the end of suite " + s.name());
                durations.add("suite " + s.name() + ": " + Report.seconds((System.nanoTime() - start) / 1e9));
            }
            stdout.println("time: " + String.join(", ", durations));
            stdout.println("results: " + csv.path());
            harness.plot();
            stdout.println("plot: " + dir.resolve(PlotPng.FILE_NAME));
            stdout.flush();
            return harness.recorded();
        } finally {
            FlinkRuns.objectReuse(false);
        }
    }
}
