package io.flinkivm.examples.jobs;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.ResultTuple;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.examples.report.FlinkClient;
import io.flinkivm.examples.report.JobReport;
import io.flinkivm.examples.report.RowFormat;
import io.flinkivm.flink.FlinkIvm;
import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Either;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs an {@link ExampleJob} on Flink: prints the plan, generates the stream with a
 * {@code DataGeneratorSource}, takes a prefix-exact snapshot every tenth of the stream and prints a
 * progress line for each (result size and inserts per second since the previous one), then a summary
 * with the first rows of the final result. Only the final snapshot's rows travel to the client; the
 * others contribute their end markers (which carry their row counts).
 */
public final class ExampleRunner {

    /** Progress lines per run, about. */
    public static final int PROGRESS_LINES = 10;
    /** Result rows the summary shows. */
    public static final int SHOWN_ROWS = 10;

    private static final int SHOWN_DEAD_LETTERS = 5;

    private ExampleRunner() {}

    /**
     * Runs {@code job} over the stream {@code data} describes and collects its result.
     *
     * @throws Exception if the Flink job fails
     * @throws IllegalStateException if a Flink client submits the job detached (see the other {@code run})
     */
    public static <T> ExampleResult<T> run(
            ExampleJob<T> job, GeneratorSettings data, FlinkSettings flink, PrintWriter out, PrintWriter err)
            throws Exception {
        return run(job, data, flink, null, out, err)
                .orElseThrow(() -> new IllegalStateException("the job was submitted detached: nobody collects it"));
    }

    /**
     * Runs {@code job} over the stream {@code data} describes. With {@code resultDir}, the job also writes its
     * final result and dead letters there and counts them in its accumulators ({@link JobReport}). Submitted
     * detached by a Flink client ({@link FlinkClient#detached}), the job reports only that way: this method
     * returns once it is submitted, with an empty result.
     *
     * @param resultDir a directory (path or URI) for the job's own report, or null
     * @throws Exception if the Flink job fails
     */
    public static <T> Optional<ExampleResult<T>> run(
            ExampleJob<T> job,
            GeneratorSettings data,
            FlinkSettings flink,
            String resultDir,
            PrintWriter out,
            PrintWriter err)
            throws Exception {
        MaintenancePlan plan = Planner.plan(QueryParser.parse(job.query()), job.semiring());
        InsertGenerator<T> generator = job.generator(data);
        long n = generator.count();
        long every = Math.max(1, (n + PROGRESS_LINES - 1) / PROGRESS_LINES);

        out.println("flink-ivm example '" + job.name() + "': " + job.title());
        for (String line : job.story()) {
            out.println("  " + line);
        }
        out.println();
        try (StreamExecutionEnvironment env = flink.environment()) {
            int parallelism = Math.max(1, env.getParallelism());
            out.println("Data: " + count(n) + " generated inserts, " + data.describeSkew() + ", seed " + data.seed());
            out.println("Flink: " + flink.describe(parallelism));
            out.println();
            out.print(plan.explain());
            out.println();

            DataStream<InputRecord<T>> inserts = env.fromSource(
                            new DataGeneratorSource<>(generator, n, FlinkIvm.inputType(job.semiring())),
                            WatermarkStrategy.noWatermarks(),
                            "generated inserts (" + job.name() + ")")
                    .setParallelism(parallelism);
            // Each ingest subtask ends an epoch after every'th insert of its own: a snapshot about every
            // `every` inserts of the whole stream.
            IvmJob<T> ivm = FlinkIvm.maintain(
                    inserts,
                    plan,
                    job.semiring(),
                    IvmOptions.defaults()
                            .withSnapshotEvery(Math.max(1, every / parallelism))
                            .withRelationRates(job.relationRates()));
            int parts = ivm.results().getParallelism();
            boolean detached = FlinkClient.detached(env);
            if (resultDir != null || detached) {
                JobReport.attach(ivm.results(), ivm.deadLetters(), n, RowFormat.of(job.semiring()), resultDir);
            }
            if (detached) {
                JobID id = env.execute("flink-ivm example " + job.name()).getJobID();
                out.println("Submitted job " + id + " (detached): it reports itself in its accumulators ("
                        + JobReport.SNAPSHOT + " " + n + " when done, " + JobReport.ROWS + ", " + JobReport.CHECKSUM
                        + ", " + JobReport.DEAD_LETTERS + ")"
                        + (resultDir == null
                                ? "; give --result-dir DIR for the rows."
                                : " and writes the rows to " + resultDir + "/" + JobReport.RESULT_DIRECTORY + "."));
                out.flush();
                return Optional.empty();
            }
            DataStream<Either<Tuple2<Long, ResultRecord<T>>, DeadLetter>> collected = IvmStreams.merged(
                    IvmStreams.stamped(IvmStreams.rowsOfSnapshot(ivm.results(), n)), ivm.deadLetters());

            out.println("Running: a prefix-exact snapshot every " + count(every) + " inserts");
            out.flush();
            Progress progress = new Progress(out, parts);
            Map<Tuple, T> result = new HashMap<>();
            long deadLetters = 0;
            long start = System.nanoTime();
            progress.startMillis = System.currentTimeMillis();
            try (CloseableIterator<Either<Tuple2<Long, ResultRecord<T>>, DeadLetter>> it =
                    collected.executeAndCollect("flink-ivm example " + job.name())) {
                while (it.hasNext()) {
                    Either<Tuple2<Long, ResultRecord<T>>, DeadLetter> e = it.next();
                    if (e.isRight()) {
                        if (++deadLetters <= SHOWN_DEAD_LETTERS) {
                            DeadLetter d = e.right();
                            err.println("dead letter from " + d.origin() + ": " + d.reason());
                        }
                        continue;
                    }
                    ResultRecord<T> r = e.left().f1;
                    if (r.isEnd()) {
                        progress.end(r, e.left().f0);
                    } else if (result.put(r.tuple(), r.payload()) != null) {
                        throw new IllegalStateException("the final snapshot has tuple " + r.tuple() + " twice");
                    }
                }
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            Long finalRows = progress.rows.get(n);
            if (finalRows == null || progress.ends.get(n) != parts || finalRows != result.size()) {
                throw new IllegalStateException("the final snapshot (after " + n + " inserts) is incomplete: "
                        + result.size() + " rows, end markers " + progress.ends.get(n) + " of " + parts
                        + " counting " + finalRows);
            }
            summary(job, generator, n, millis, deadLetters, result, out);
            if (deadLetters > SHOWN_DEAD_LETTERS) {
                err.println("... and " + (deadLetters - SHOWN_DEAD_LETTERS) + " more dead letters");
            }
            out.flush();
            err.flush();
            return Optional.of(new ExampleResult<>(plan, result, n, progress.completed, deadLetters, millis));
        }
    }

    private static <T> void summary(
            ExampleJob<T> job,
            InsertGenerator<T> generator,
            long n,
            long millis,
            long deadLetters,
            Map<Tuple, T> result,
            PrintWriter out) {
        out.println();
        out.println("Done: " + count(n) + " inserts in " + seconds(millis) + " (" + rate(n, millis)
                + ", start-up included), " + deadLetters + " dead letter" + (deadLetters == 1 ? "" : "s")
                + "; result: " + count(result.size()) + " tuple" + (result.size() == 1 ? "" : "s") + ".");
        if (result.isEmpty()) {
            return;
        }
        List<ResultTuple<T>> shown = Rows.first(result, job.resultOrder(), SHOWN_ROWS);
        out.println(
                shown.size() == result.size()
                        ? "Result, " + job.resultOrderName() + ":"
                        : "First " + shown.size() + " result tuples of " + count(result.size()) + ", "
                                + job.resultOrderName() + ":");
        String head = QueryParser.parse(job.query()).name();
        for (int i = 0; i < shown.size(); i++) {
            ResultTuple<T> r = shown.get(i);
            out.println("  " + Rows.format(head, r.tuple(), job.formatPayload(r.payload())));
            if (i == 0) {
                for (String line : job.explainRow(r, generator)) {
                    out.println("      " + line);
                }
            }
        }
    }

    /**
     * Collects end markers; prints a line when a snapshot has all its parts. The rate since the previous
     * snapshot uses the times at which the sink emitted them (the last part's), not when they arrived
     * here: the client fetches results in batches.
     */
    private static final class Progress {
        private final PrintWriter out;
        private final int parts;
        final Map<Long, Integer> ends = new HashMap<>();
        final Map<Long, Long> rows = new HashMap<>();
        private final Map<Long, Long> emitted = new HashMap<>();
        long startMillis;
        int completed;
        private long lastInserts;
        private long lastMillis;

        Progress(PrintWriter out, int parts) {
            this.out = out;
            this.parts = parts;
        }

        void end(ResultRecord<?> r, long emittedMillis) {
            long id = r.snapshotId();
            int seen = ends.merge(id, 1, Integer::sum);
            long total = rows.merge(id, r.rows(), Long::sum);
            long at = emitted.merge(id, emittedMillis, Math::max);
            if (seen != parts) {
                return;
            }
            long since = completed == 0 ? startMillis : lastMillis;
            out.printf(
                    Locale.ROOT,
                    "  after %12s inserts: %12s result tuples, %16s since the previous%s%n",
                    count(r.insertCount()),
                    count(total),
                    rate(r.insertCount() - lastInserts, at - since),
                    completed == 0 ? " (start-up included)" : "");
            out.flush();
            completed++;
            lastInserts = r.insertCount();
            lastMillis = at;
        }
    }

    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    static String rate(long inserts, long millis) {
        return String.format(Locale.ROOT, "%,d inserts/s", Math.round(inserts * 1000.0 / Math.max(1, millis)));
    }
}
