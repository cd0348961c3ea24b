package io.flinkivm.examples.cli;

import io.flinkivm.core.engine.Engines;
import io.flinkivm.core.engine.IvmEngine;
import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.command.CliException;
import io.flinkivm.examples.command.Converters;
import io.flinkivm.examples.command.FlinkOptions;
import io.flinkivm.examples.command.OutputModeOption;
import io.flinkivm.examples.command.Version;
import io.flinkivm.examples.jobs.FlinkSettings;
import io.flinkivm.examples.report.FlinkClient;
import io.flinkivm.examples.report.JobReport;
import io.flinkivm.examples.report.RowFormat;
import io.flinkivm.flink.OutputMode;
import io.flinkivm.flink.types.ResultRecord;
import io.flinkivm.sql.translate.DistinctGroupMap;
import io.flinkivm.sql.translate.DistinctGroups;
import io.flinkivm.sql.translate.SqlTranslation;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.api.common.JobID;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code run}: maintains a query over a CSV file of inserts and writes the final result as CSV. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        sortOptions = false,
        header = "Maintains a query over a CSV file of inserts and writes the result as CSV.",
        description = {
            "Maintains a query under the inserts (and, on the in-memory engine, deletes and updates) of a CSV"
                    + " file, one change at a time, and writes the result at the end. Malformed input lines are"
                    + " reported, optionally written to a dead-letter file, and skipped; the other lines are applied."
                    + " On stdout the run closes with 'inserts: N, rejected: M' (N accepted lines: inserts, deletes"
                    + " and updates; M rejected lines), the result size and the time.",
            "With --engine flink (the default) the lines are read and checked here, the job runs on the embedded"
                    + " local Flink (or, under 'flink run', on the cluster: this process reads the input and writes"
                    + " the output, the inserts travel inside the job), and the output is the snapshot taken at the"
                    + " end of the input. Inserts that Flink rejects (a payload overflow inside a view) are reported"
                    + " like malformed lines, after them.",
            "Submitted detached (flink run -d, the web UI, the REST API's /jars/:id/run, which run this program"
                    + " on the JobManager), the program reads the input, submits the job and returns: give"
                    + " --result-dir instead of --output; the job writes the final result there itself (same"
                    + " columns as --output, no header, in part files) and counts it in its accumulators.",
            "With --output-mode changelog or --snapshot-every the output has a trigger after every N accepted lines"
                    + " and at the end: the whole result each time, or only the result tuples whose payload changed"
                    + " (a changelog). On the in-memory engine each trigger is written as the engine enumerates it"
                    + " while the input is read; on Flink a snapshot request goes into every ingest subtask's input"
                    + " after its share of each trigger's lines, and the parallel sinks' rows are put back in trigger"
                    + " order."
        },
        footerHeading = "%nFile formats:%n",
        footer = {
            "  Input (--input) with --sql: UTF-8 text, one table row per line: [kind,]table,value1,...,valueK",
            "    table is a table of --schema and K its number of columns; no payload column: the payloads come"
                    + " from the SQL. kind is +I, -D, -U or +U as below: a table named on a -D or -U line is read"
                    + " as a changelog and the aggregates are kept over their ring (a SELECT without aggregates, or"
                    + " DISTINCT, over such a table ends with exit code 2); a -D or -U of a row that is not there"
                    + " is rejected. Values are written as SQL would print them (42, 12.50, 2024-05-01,"
                    + " 2024-05-01 10:15:00, true); an empty field is the empty string in a STRING column and"
                    + " rejected elsewhere. A row is rejected if a value does not fit its column's type, or its"
                    + " payload is not one of the semiring (a negative value under SUM).",
            "  Output (--output) with --sql: a header with the SELECT list's output names (aliases where"
                    + " given, else the column's name, else EXPR$i), then one line per result row.",
            "  Input (--input): UTF-8 text, one change per line:",
            "      [kind,]relation,value1,...,valueK,payload",
            "    relation is a relation of the query and K its arity there; values are text (a constant in the"
                    + " query matches a value with the same text); the payload is in the semiring's text form:"
                    + " natural 3, boolean true/false (or 1/0), min-plus 2.5 or inf, max-plus 2.5 or -inf,"
                    + " viterbi 0.25, provenance 2*x*y + z, covariance:<m> c;s1 ... sm;q11 ... qmm (or a bare"
                    + " feature vector x1 ... xm), integer -3, covariance-ring:<m> as covariance:<m> with a signed"
                    + " count. Payloads of a repeated tuple are added.",
            "    kind is the change's kind: +I (an insert), -D (a delete), -U (the old row of an update) or +U (its"
                    + " new row); a line without one is an insert. -D and -U name the row and the payload to take"
                    + " away, which needs a ring (integer, covariance-ring:<m>), on either engine; a -D or -U"
                    + " line of a row that is not there, or that holds less, is rejected (a dead letter) and"
                    + " changes nothing. The relations named on -D and -U lines are planned as changelogs (see"
                    + " explain --changelog).",
            "    Fields follow RFC 4180: a field in double quotes may contain commas, and \"\" stands for a quote"
                    + " inside it; a quoted field cannot span lines. Blank lines and lines starting with # are"
                    + " skipped. A line is rejected if it is not valid UTF-8, is longer than 1 MiB, has a field"
                    + " longer than 64 KiB, bad quoting, an unknown relation, the wrong number of values, a"
                    + " payload that does not parse, or a payload that overflows (natural numbers have 64 bits).",
            "  Output (--output): a header line with the query's free variables and payload, then one line per"
                    + " result tuple in no particular order, fields quoted as above where needed. Written"
                    + " to a temporary file and moved into place at the end.",
            "  Triggers: trigger k is the result over exactly the first k*N accepted input lines (--snapshot-every N),"
                    + " the last one over all of them; a trigger whose lines made no insert is left out. Numbered"
                    + " from 1, in the same way on both engines at any parallelism.",
            "  Output with --output-mode snapshot --snapshot-every N: header trigger,<free variables>,payload, then"
                    + " every trigger's whole result, one line per result tuple, triggers in increasing order.",
            "  Output with --output-mode changelog: header trigger,kind,<free variables>,payload, then one line per"
                    + " result tuple whose payload changed since the previous trigger, each once per trigger, triggers"
                    + " in increasing order: kind +I (new to the result) or +U (its new payload), with"
                    + " --update-before a -U line with the previous payload right before each +U; -D (left the"
                    + " result, with its last payload) after deletes or payloads that cancel (a ring). Setting each"
                    + " +I/+U tuple's payload and removing each -D tuple in order gives every trigger's result; after the"
                    + " last, the output that run writes without these options. Without --snapshot-every there is"
                    + " one trigger, at the end: every result tuple as +I.",
            "  With --sql the free variables and payload are replaced by the SELECT list's output names, as above.",
            "  Dead letter (--dead-letter): one line per rejected input line, no header:"
                    + " line_number,reason,original text (CSV-quoted; bytes that are not UTF-8 appear as U+FFFD);"
                    + " the lines rejected inside Flink follow those rejected while reading.",
            "",
            "Exit codes:",
            "  0  the result was written (also when some lines were rejected), or the detached job submitted",
            "  1  I/O error (input, output or dead-letter file), a result payload overflow or a failed Flink job",
            "  2  bad option, malformed query or SQL, SQL outside the supported subset, unknown semiring or engine,"
                    + " unsupported plan"
        })
final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    QueryOptions queryOptions;

    @Option(
            names = "--semiring",
            paramLabel = "SEMIRING",
            converter = Converters.SemiringConverter.class,
            description = {
                "The payload semiring: natural, boolean, min-plus, max-plus, viterbi, provenance or"
                        + " covariance:<m> (m features), or a ring for deletes: integer or covariance-ring:<m>."
                        + " Required with --query; with --sql the aggregate decides it."
            })
    Semiring<?> semiring;

    /** The translation of --sql, or null for --query. */
    private SqlTranslation sql;

    /** The input's lines, read for the run. */
    private ChangeLines lines;

    @Option(
            names = "--input",
            paramLabel = "IN.csv",
            required = true,
            description = {"The inserts, one per line: relation,value1,...,valueK,payload (see File formats)."})
    Path input;

    @Option(
            names = "--output",
            paramLabel = "OUT.csv",
            description = {
                "Where the result goes: the free variables and payload, one line per result tuple. Required,"
                        + " except for a detached submission (then give --result-dir)."
            })
    Path output;

    @Option(
            names = "--dead-letter",
            paramLabel = "DL.csv",
            description = {
                "Where rejected lines go, as line_number,reason,original text. Without it they are"
                        + " reported on stderr (the first " + Rejects.MAX_REPORTED + ") and counted only."
            })
    Path deadLetter;

    @Option(
            names = "--engine",
            paramLabel = "ENGINE",
            defaultValue = "flink",
            converter = EngineConverter.class,
            description = {
                "The runtime that maintains the result: flink (flink-ivm's operators on the embedded"
                        + " local Flink, or on the cluster under 'flink run') or memory (the in-memory engine of"
                        + " flink-ivm-core, single-threaded). Both give the same result. Default: ${DEFAULT-VALUE}."
            })
    EngineKind engine;

    /** An engine: flink or memory. */
    static final class EngineConverter extends Converters.EnumConverter<EngineKind> {
        EngineConverter() {
            super(EngineKind.class);
        }
    }

    @Mixin
    OutputModeOption outputMode;

    @Option(
            names = "--snapshot-every",
            paramLabel = "N",
            defaultValue = "0",
            description = {
                "A trigger after every N accepted input lines, and one at the end of the input: trigger k is the"
                        + " result over exactly the first k*N accepted lines, on both engines at any parallelism."
                        + " 0: only at the end."
            })
    long snapshotEvery;

    @Option(
            names = "--update-before",
            description = {
                "With --output-mode changelog: an updated tuple's previous payload as a -U line before its +U line."
            })
    boolean updateBefore;

    @Mixin
    FlinkOptions flinkOptions;

    @Mixin
    ResultDirOption resultDir;

    @Override
    public Integer call() throws Exception {
        if (snapshotEvery < 0) {
            throw CliException.usage("--snapshot-every must be >= 0, got " + snapshotEvery);
        }
        if (updateBefore && outputMode.mode() != OutputMode.CHANGELOG) {
            throw CliException.usage("--update-before goes with --output-mode changelog only");
        }
        if (engine == EngineKind.MEMORY && queryOptions.stateTtl != null) {
            throw CliException.usage(
                    "--state-ttl applies to --engine flink only: the in-memory engine keeps all state");
        }
        if (queryOptions.isSql()) {
            if (semiring != null) {
                throw CliException.usage("--semiring does not go with --sql: the SQL's aggregate decides the semiring");
            }
            sql = queryOptions.translate();
            if (!sql.windows().isEmpty()) {
                throw CliException.usage("--sql uses the window table functions over "
                        + String.join(
                                ", ",
                                sql.windows().assignments().stream()
                                        .map(w -> w.relation())
                                        .toList())
                        + ", which need event-time watermarks, and run reads a file without them: explain --sql"
                        + " shows the plan; FlinkIvmSql.sql (or the SQL Client's procedures) runs it over tables"
                        + " with a WATERMARK");
            }
            String refusal = engine == EngineKind.MEMORY ? FlinkExpressions.refusal(sql) : null;
            if (refusal != null) {
                throw CliException.usage(refusal);
            }
        } else if (semiring == null) {
            throw CliException.usage("Missing required option: '--semiring=SEMIRING'");
        }
        ConjunctiveQuery query = sql != null ? sql.query() : queryOptions.parse();
        lines = new ChangeLines(input, sql);
        if (engine == EngineKind.FLINK) {
            lines.withFlinkExpressions();
        }
        Inputs inputs = lines.changelogInputs(query);
        if (sql != null) {
            semiring = sql.semiringFor(inputs);
        }
        MaintenancePlan plan = queryOptions.plan(query, semiring, inputs);
        if (sql != null) {
            plan = plan.withTables(sql.tablesOfSharedRows());
        }
        if (engine == EngineKind.MEMORY && (flinkOptions.anyGiven() || resultDir.given() != null)) {
            throw CliException.usage("--state, --parallelism, --checkpoint-dir, --checkpoint-interval and --result-dir"
                    + " apply to --engine flink only");
        }
        if (engine == EngineKind.FLINK && sql != null && sql.distinctGroups() != null) {
            throw CliException.usage("COUNT(DISTINCT ...) runs on --engine memory in this command (FlinkIvmSql.sql"
                    + " maintains it on Flink, as a table): the Flink engine here writes result tuples, and"
                    + " COUNT(DISTINCT ...) folds them into groups");
        }
        if (engine == EngineKind.FLINK && FlinkClient.submitsDetached()) {
            return submitDetached(semiring, plan);
        }
        if (output == null) {
            throw CliException.usage("Missing required option: '--output=OUT.csv'");
        }
        return execute(semiring, plan);
    }

    /**
     * A detached submission (flink run -d, the web UI, the REST API): nobody waits for the job, so it writes its
     * result to --result-dir itself and this method returns once it is submitted.
     */
    private <T> int submitDetached(Semiring<T> s, MaintenancePlan plan) {
        if (output != null) {
            throw CliException.usage("--output is written by this program when the job has finished, but a detached"
                    + " submission (flink run -d, the web UI, the REST API) does not wait for the job: give"
                    + " --result-dir DIR instead, where the job writes its result itself");
        }
        if (resultDir.given() == null) {
            throw CliException.usage("a detached submission (flink run -d, the web UI, the REST API) needs"
                    + " --result-dir DIR: the job writes its result there, since nobody collects it");
        }
        if (layout() != ResultWriter.Layout.RESULT) {
            throw CliException.usage("a detached submission writes the final result only: --output-mode changelog and"
                    + " --snapshot-every need this program to collect the job's triggers (submit attached)");
        }
        FlinkRun<T> run = new FlinkRun<>(plan, s, flinkOptions.settings(), triggers(), queryOptions.stateTtl);
        long accepted;
        long rejected;
        try (Rejects rejects = new Rejects(spec.commandLine().getErr(), deadLetter)) {
            accepted = lines.read(
                    s,
                    plan.query(),
                    rejects,
                    ChangeLines.checked(s, plan, run),
                    run::lineAccepted,
                    ChangeLines.marked(plan));
            rejected = rejects.count();
            rejects.printTotal();
        }
        printCounts(accepted, rejected);
        JobID id = run.submit(jobName(plan), new FlinkRun.Report<>(resultDir.uri(), rowFormat(s)));
        PrintWriter out = spec.commandLine().getOut();
        if (id == null) {
            out.println("no accepted insert: the result is empty; no job submitted");
        } else {
            out.println("submitted job " + id + " (detached): it writes the result's rows to " + resultDir.uri() + "/"
                    + JobReport.RESULT_DIRECTORY + " and its dead letters to " + resultDir.uri() + "/"
                    + JobReport.DEAD_LETTER_DIRECTORY + "; its accumulators count them (" + JobReport.SNAPSHOT + " "
                    + accepted + " when done)");
        }
        out.flush();
        return 0;
    }

    private <T> int execute(Semiring<T> s, MaintenancePlan plan) {
        long start = System.nanoTime();
        FlinkSettings flink = engine == EngineKind.FLINK ? flinkOptions.settings() : null;
        if (Files.isDirectory(output)) {
            throw CliException.failure("cannot write output file " + output + ": it is a directory", null);
        }
        Path temporary = createTemporaryOutput();
        try {
            return switch (engine) {
                case MEMORY -> inMemory(s, plan, temporary, start);
                case FLINK -> onFlink(s, plan, flink, temporary, start);
            };
        } finally {
            deleteQuietly(temporary);
        }
    }

    /** The output's layout: the final result, every trigger's snapshot, or a changelog. */
    private ResultWriter.Layout layout() {
        if (outputMode.mode() == OutputMode.CHANGELOG) {
            return ResultWriter.Layout.CHANGELOG;
        }
        return snapshotEvery > 0 ? ResultWriter.Layout.SNAPSHOTS : ResultWriter.Layout.RESULT;
    }

    private RunTriggers triggers() {
        // A bag's changelog rows come from how much each count grew: the Flink job then sends the old count (-U).
        return new RunTriggers(snapshotEvery, outputMode.mode(), updateBefore || sql != null && sql.isBag());
    }

    /**
     * The in-memory engine: each trigger's snapshot, or its changes, written as the engine enumerates
     * them while the input is read (without triggers, one snapshot at the end of the input).
     */
    private <T> int inMemory(Semiring<T> s, MaintenancePlan plan, Path temporary, long start) {
        boolean changelog = outputMode.mode() == OutputMode.CHANGELOG;
        IvmEngine<T> ivm = changelog ? Engines.withChangelog(plan, s) : Engines.create(plan, s);
        RunTriggers triggers = triggers();
        long[] inserts = {0};
        TriggerCounts counts = new TriggerCounts();
        if (sql != null && sql.distinctGroups() != null) {
            counts.groups = new DistinctGroupMap(sql, s);
        }
        try (ResultWriter w = writer(temporary, plan, layout())) {
            long accepted;
            long rejected;
            try (Rejects rejects = new Rejects(spec.commandLine().getErr(), deadLetter)) {
                accepted = lines.read(
                        s,
                        plan.query(),
                        rejects,
                        new ChangeLines.ChangeSink<T>() {
                            @Override
                            public void change(ChangeKind kind, String relation, Tuple tuple, T payload, long line)
                                    throws RejectedLineException {
                                ChangeLines.apply(ivm, kind, relation, tuple, payload);
                                inserts[0]++;
                            }

                            @Override
                            public void dropped(ChangeKind kind, String relation, Tuple tuple, long line)
                                    throws RejectedLineException {
                                ChangeLines.filtered(ivm, kind, relation, tuple);
                            }
                        },
                        lines -> writeTrigger(ivm, s, w, triggers.lineAccepted(lines, inserts[0]), counts),
                        ChangeLines.marked(plan));
                rejected = rejects.count();
                rejects.printTotal();
            }
            // The counts first: they hold even if the last trigger's result overflows.
            printCounts(accepted, rejected);
            writeTrigger(ivm, s, w, triggers.endOfInput(inserts[0]), counts);
        } catch (IOException e) {
            throw outputFailure(e);
        } catch (UncheckedIOException e) {
            throw outputFailure(e.getCause());
        } catch (ArithmeticException e) {
            throw resultOverflow(e);
        }
        return finish(temporary, counts.resultSize, counts.rows, counts.triggers, start);
    }

    /** What the triggers wrote: triggers, rows, and the result's size after the last one. */
    private static final class TriggerCounts {
        long triggers;
        long rows;
        long resultSize;
        /** With COUNT(DISTINCT ...), the groups so far (a changelog) or of the last snapshot; else null. */
        DistinctGroupMap groups;
    }

    /**
     * Writes trigger {@code k} of a query with COUNT(DISTINCT ...): the result tuples folded into groups,
     * each group one row; in a changelog, the groups whose rows the trigger's changes changed.
     */
    private <T> void writeGroups(IvmEngine<T> ivm, ResultWriter w, long k, TriggerCounts counts) throws IOException {
        DistinctGroupMap groups = counts.groups;
        if (outputMode.mode() == OutputMode.CHANGELOG) {
            ivm.changes(c -> groups.change(c.tuple(), c.previous(), c.payload()));
            for (DistinctGroupMap.Change c : groups.drain()) {
                if (c.before() == null) {
                    w.groupRow(k, ResultRecord.Kind.INSERT, c.group(), c.after());
                } else if (c.after() == null) {
                    w.groupRow(k, ResultRecord.Kind.DELETE, c.group(), c.before());
                } else {
                    if (updateBefore) {
                        w.groupRow(k, ResultRecord.Kind.UPDATE_BEFORE, c.group(), c.before());
                    }
                    w.groupRow(k, ResultRecord.Kind.UPDATE_AFTER, c.group(), c.after());
                }
            }
        } else {
            groups.clear();
            for (Iterator<ResultTuple<T>> it = ivm.enumerate(); it.hasNext(); ) {
                ResultTuple<T> r = it.next();
                groups.change(r.tuple(), null, r.payload());
            }
            groups.drain();
            for (Map.Entry<Tuple, DistinctGroups.Group> g : groups.groups().entrySet()) {
                w.groupRow(k, ResultRecord.Kind.SNAPSHOT, g.getKey(), g.getValue());
            }
        }
        counts.resultSize = groups.groups().size();
    }

    /** Writes trigger {@code k} (nothing if k is 0): the engine's snapshot, or its changes one by one. */
    private <T> void writeTrigger(IvmEngine<T> ivm, Semiring<T> s, ResultWriter w, long k, TriggerCounts counts) {
        if (k == 0) {
            return;
        }
        long before = w.rows();
        try {
            if (counts.groups != null) {
                writeGroups(ivm, w, k, counts);
            } else if (outputMode.mode() == OutputMode.CHANGELOG) {
                ivm.changes(c -> {
                    counts.resultSize += c.isInsert() ? 1 : c.payload() == null ? -1 : 0;
                    try {
                        w.change(k, c, updateBefore, s);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } else {
                for (Iterator<ResultTuple<T>> it = ivm.enumerate(); it.hasNext(); ) {
                    ResultTuple<T> r = it.next();
                    w.snapshotRow(k, r.tuple(), r.payload(), s);
                }
                counts.resultSize = w.rows() - before;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        counts.triggers++;
        counts.rows += w.rows() - before;
    }

    private <T> int onFlink(Semiring<T> s, MaintenancePlan plan, FlinkSettings flink, Path temporary, long start) {
        FlinkRun<T> run = new FlinkRun<>(plan, s, flink, triggers(), queryOptions.stateTtl);
        long accepted;
        long rejected;
        long results;
        try (Rejects rejects = new Rejects(spec.commandLine().getErr(), deadLetter)) {
            accepted = lines.read(
                    s,
                    plan.query(),
                    rejects,
                    ChangeLines.checked(s, plan, run),
                    run::lineAccepted,
                    ChangeLines.marked(plan));
            List<FlinkRun.Rejected> late;
            try (ResultWriter w = writer(temporary, plan, layout())) {
                late = run.execute(
                        w,
                        jobName(plan),
                        resultDir.given() == null ? null : new FlinkRun.Report<>(resultDir.uri(), rowFormat(s)));
                results = w.rows();
            } catch (IOException e) {
                throw outputFailure(e);
            } catch (ArithmeticException e) {
                throw resultOverflow(e);
            }
            Map<Long, String> texts = lines.originalLines(late);
            for (FlinkRun.Rejected r : late) {
                rejects.reject(r.line(), r.reason(), texts.getOrDefault(r.line(), r.record()));
            }
            accepted -= late.size();
            rejected = rejects.count();
            rejects.printTotal();
        }
        printCounts(accepted, rejected);
        // Without triggers the one snapshot's rows are the result.
        long resultSize = layout() == ResultWriter.Layout.RESULT ? results : run.resultSize();
        return finish(temporary, resultSize, results, run.triggersWritten(), start);
    }

    private String jobName(MaintenancePlan plan) {
        return "flink-ivm run " + plan.query().name() + " < " + input.getFileName();
    }

    /** The columns of the output: the tuple and payload, or the SELECT list of a query given in SQL. */
    private <T> RowFormat<T> rowFormat(Semiring<T> s) {
        return sql == null ? RowFormat.of(s) : RowFormat.of(sql);
    }

    private ResultWriter writer(Path file, MaintenancePlan plan, ResultWriter.Layout layout) throws IOException {
        return sql == null ? new ResultWriter(file, plan.query(), layout) : new ResultWriter(file, sql, layout);
    }

    private void printCounts(long accepted, long rejected) {
        PrintWriter out = spec.commandLine().getOut();
        out.println("inserts: " + accepted + ", rejected: " + rejected);
        out.flush();
    }

    /** Moves the output into place and prints the summary; with triggers, also the rows they wrote. */
    private int finish(Path temporary, long results, long rows, long triggers, long start) {
        try {
            moveIntoPlace(temporary);
        } catch (IOException e) {
            throw outputFailure(e);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        PrintWriter out = spec.commandLine().getOut();
        String written = layout() == ResultWriter.Layout.RESULT
                ? ""
                : ", " + rows + " row" + (rows == 1 ? "" : "s") + " in " + triggers + " trigger"
                        + (triggers == 1 ? "" : "s");
        out.println("result: " + results + " tuple" + (results == 1 ? "" : "s") + written + " written to " + output
                + ", time: " + millis + " ms");
        out.flush();
        return 0;
    }

    private CliException outputFailure(IOException e) {
        return CliException.failure("cannot write output file " + output + ": " + CliException.describe(e), e);
    }

    static CliException resultOverflow(ArithmeticException e) {
        return CliException.failure(
                "a result payload overflowed while the result was enumerated (" + e.getMessage()
                        + "); no output was written",
                e);
    }

    private Path createTemporaryOutput() {
        Path absolute = output.toAbsolutePath();
        if (!Files.isDirectory(absolute.getParent())) {
            throw CliException.failure(
                    "cannot write output file " + output + ": directory " + absolute.getParent() + " does not exist",
                    null);
        }
        try {
            return Files.createTempFile(absolute.getParent(), "." + absolute.getFileName() + ".", ".tmp");
        } catch (IOException e) {
            throw CliException.failure("cannot write output file " + output + ": " + CliException.describe(e), e);
        }
    }

    private void moveIntoPlace(Path temporary) throws IOException {
        try {
            Files.move(temporary, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, output, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // The temporary file stays behind; the command fails for the reason given to the user.
        }
    }
}
