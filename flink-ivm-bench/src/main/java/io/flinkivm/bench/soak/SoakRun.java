package io.flinkivm.bench.soak;

import io.flinkivm.bench.cluster.LocalFlinkCluster;
import io.flinkivm.bench.state.CheckpointStats;
import io.flinkivm.bench.state.EndGate;
import io.flinkivm.bench.state.StateReport;
import io.flinkivm.bench.state.StateSizeReporter;
import io.flinkivm.bench.state.ThreadCpu;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.jobs.FlinkSettings;
import io.flinkivm.examples.jobs.IvmStreams;
import io.flinkivm.examples.jobs.StateBackendKind;
import io.flinkivm.flink.FlinkIvm;
import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.OutputMode;
import io.flinkivm.flink.WindowEmit;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.api.java.typeutils.EitherTypeInfo;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Either;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs a soak: the generated stream through the flink-ivm job on the embedded local Flink with
 * checkpoints, one snapshot at the end. It measures the throughput of each tenth of the stream at the
 * sink ({@link ProgressOperator}: inserts fully processed, not merely read), polls the checkpoint
 * statistics from the local cluster's REST API ({@link CheckpointMonitor}), and finally replays the same
 * stream into the in-memory engine of flink-ivm-core and compares the two results tuple by tuple.
 */
public final class SoakRun {
    /** A windowed soak's trigger: every this many inserts of each ingest subtask, as the quick starts'. */
    static final long WINDOWED_TRIGGER_EVERY = 10_000;
    /** A windowed soak's watermark alignment: how far a source subtask's watermark may run ahead. */
    static final Duration ALIGNMENT = Duration.ofSeconds(1);

    private SoakRun() {}

    /**
     * Runs the soak and prints its figures to {@code out}.
     *
     * @param flink must enable checkpointing; RocksDB checkpoints are incremental
     * @param managedMemory the embedded TaskManager's managed memory (RocksDB's block cache and
     *     memtables), or null for Flink's local default (128 MiB)
     * @param extra Flink configuration entries set last, over the soak's own (e.g. RocksDB options to compare)
     * @param rate inserts per second over all source subtasks, or 0 for no limit (the restores run unlimited)
     * @param windows the windows of every relation, or null for none: the job then emits each window's
     *     groups once, final, and the result is checked window by window
     * @throws Exception if the Flink job fails
     */
    public static <T> SoakReport run(
            MaintenancePlan plan,
            Semiring<T> semiring,
            SoakStream<T> stream,
            SoakWindows windows,
            FlinkSettings flink,
            MemorySize managedMemory,
            Map<String, String> extra,
            long rate,
            PrintWriter out)
            throws Exception {
        long n = stream.count();
        int restPort = LocalFlinkCluster.freePort();
        Configuration conf = flink.configuration();
        if (flink.state() == StateBackendKind.ROCKSDB) {
            conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
        }
        if (managedMemory != null) {
            conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, managedMemory);
        }
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, Integer.toString(restPort));
        conf.set(RestOptions.PORT, restPort);
        conf.set(WebOptions.CHECKPOINTS_HISTORY_SIZE, 100_000);
        conf.set(RestOptions.CACHE_CHECKPOINT_STATISTICS_TIMEOUT, Duration.ofMillis(200));

        StateSizeReporter.configure(conf);
        conf.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        conf.addAll(Configuration.fromMap(extra));

        ProgressOperator.clearSamples();
        Map<Tuple, T> result = new HashMap<>();
        WindowDigests digests = windows == null ? null : windows.digests();
        // The progress marks with what the progress operator sampled at each.
        List<Mark> marks = new ArrayList<>();
        long deadLetters = 0;
        long endRows = 0;
        int ends = 0;
        List<SoakReport.Checkpoint> checkpoints;
        long failedCheckpoints;
        long start = System.currentTimeMillis();
        long millis;
        String jobName = "flink-ivm soak " + plan.query().name() + " (" + n + " inserts)";
        CompletableFuture<String> firstTenth = null;
        long firstTenthInserts = 0;
        CheckpointStats.Checkpoint last = null;
        String retained = null;
        EndGate gate = EndGate.create();
        gate.configure(conf);
        try (gate;
                StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf)) {
            if (!(env instanceof LocalStreamEnvironment)) {
                throw new IllegalStateException("the soak runs on the embedded local Flink only (its REST API gives"
                        + " the checkpoint statistics); run it with java -jar, not flink run");
            }
            int parallelism = Math.max(1, env.getParallelism());
            out.println("Flink: " + flink.describe(parallelism)
                    + (flink.state() == StateBackendKind.ROCKSDB ? ", incremental checkpoints" : ""));
            if (!extra.isEmpty()) {
                out.println("Flink configuration added: " + new TreeMap<>(extra));
            }
            out.println();
            out.flush();
            if (windows != null && windows.clock().parallelism() != parallelism) {
                throw new IllegalStateException(
                        "the event time was dealt for " + windows.clock().parallelism()
                                + " source subtasks, but the job runs " + parallelism + "; set --parallelism");
            }
            Built<T> built = build(env, plan, semiring, stream, windows, parallelism, rate);
            JobClient client = env.executeAsync(jobName);
            String rest = "http://127.0.0.1:" + restPort;
            try (CheckpointMonitor monitor = new CheckpointMonitor(rest, client.getJobID(), Duration.ofMillis(500))) {
                monitor.start();
                try (CloseableIterator<Either<Either<ResultRecord<T>, Tuple3<Integer, Long, Long>>, DeadLetter>> it =
                        built.results()) {
                    // The sources wait at the end of the stream (EndGate): the results are complete with the final
                    // snapshot's last end marker and the SNAPSHOT mark, which the final watermark brings right
                    // after it (it times the snapshot at the sink). Windowed, the final watermark closes the last
                    // windows, whose groups come before the mark.
                    boolean snapshotMarked = false;
                    while (((digests == null && ends < built.parts()) || !snapshotMarked) && it.hasNext()) {
                        Either<Either<ResultRecord<T>, Tuple3<Integer, Long, Long>>, DeadLetter> e = it.next();
                        if (e.isRight()) {
                            deadLetters++;
                            continue;
                        }
                        Either<ResultRecord<T>, Tuple3<Integer, Long, Long>> l = e.left();
                        if (l.isRight()) {
                            Tuple3<Integer, Long, Long> m = l.right();
                            snapshotMarked |= m.f0 == ProgressOperator.SNAPSHOT;
                            marks.add(new Mark(
                                    m.f0,
                                    m.f1,
                                    m.f2,
                                    ProgressOperator.SAMPLES.remove(ProgressOperator.key(m.f0, m.f1))));
                            if (m.f0 == ProgressOperator.TENTH) {
                                SoakProgressReport.printProgress(
                                        out, tenths(marks), start, StateSizeReporter.totals(jobName));
                                if (firstTenth == null && flink.checkpointDir() != null) {
                                    firstTenthInserts = m.f1;
                                    firstTenth = client.triggerSavepoint(
                                            flink.checkpointUri() + "/savepoints", SavepointFormatType.NATIVE);
                                }
                            }
                            continue;
                        }
                        ResultRecord<T> r = l.left();
                        if (r.isEnd()) {
                            ends++;
                            endRows += r.rows();
                        } else if (digests != null) {
                            if (r.kind() != ResultRecord.Kind.INSERT) {
                                throw new IllegalStateException(
                                        "a window's group came as " + r.kind() + ", not once, final: " + r);
                            }
                            digests.add(r.tuple(), r.payload());
                        } else if (result.put(r.tuple(), r.payload()) != null) {
                            throw new IllegalStateException("the final snapshot has tuple " + r.tuple() + " twice");
                        }
                    }
                    millis = System.currentTimeMillis() - start;
                    last = lastCheckpoint(new CheckpointStats(rest), client, jobName, out);
                }
                monitor.close();
                checkpoints = monitor.completed();
                failedCheckpoints = monitor.failed();
                failureLines(failedCheckpoints, monitor.failureReasons()).forEach(out::println);
                if (checkpoints.isEmpty() && monitor.lastError() != null) {
                    out.println("(checkpoint statistics unavailable: " + monitor.lastError() + ")");
                }
            } finally {
                gate.release();
                cancel(client);
                // Periodic checkpoints may have followed the last one: restore the one that is retained.
                retained = retainedCheckpoint(
                        flink.checkpointUri(), new CheckpointStats("http://127.0.0.1:" + restPort), client);
            }
        }
        long tuples = digests == null ? result.size() : digests.tuples();
        if (digests == null && (endRows != result.size() || ends == 0)) {
            throw new IllegalStateException("the final snapshot is incomplete: " + result.size() + " rows, " + ends
                    + " end markers counting " + endRows);
        }
        List<SoakReport.Tenth> tenths = tenths(marks);
        long snapshotMillis = snapshotMillis(marks);
        SoakProgressReport.printSummary(
                out, n, millis, tenths, checkpoints, failedCheckpoints, tuples, deadLetters, snapshotMillis);
        SoakProgressReport.printThreads(out, tenths);
        StateReport state = new StateReport(last, StateSizeReporter.columnFamilies(jobName));
        StateSizeReporter.forget(jobName);
        if (!state.isEmpty()) {
            out.println("State at the end (the last checkpoint, taken after the final snapshot):");
            state.print(out, "  ");
        }
        List<Restarts.Restart> restarts = new ArrayList<>();
        if (firstTenth != null) {
            restarts.add(Restarts.measure(
                    "savepoint after tenth 1 (native)",
                    waitFor(firstTenth),
                    firstTenthInserts,
                    -1,
                    conf,
                    env -> build(env, plan, semiring, stream, windows, Math.max(1, env.getParallelism()), 0)
                            .results()));
        }
        if (last != null && retained != null) {
            restarts.add(Restarts.measure(
                    "last checkpoint (incremental)",
                    retained,
                    n,
                    last.stateBytes(),
                    conf,
                    env -> build(env, plan, semiring, stream, windows, Math.max(1, env.getParallelism()), 0)
                            .results()));
        }
        Restarts.print(out, restarts);
        boolean same = digests == null
                ? SoakProgressReport.check(plan, semiring, stream, result, out)
                : windows.check(plan, semiring, stream, digests, out);
        return new SoakReport(
                n, tenths, checkpoints, failedCheckpoints, tuples, deadLetters, same, millis, restarts, state);
    }

    /** The soak's job in {@code env}: what {@link #run} reads, and how many end markers a snapshot has. */
    private record Built<T>(
            CloseableIterator<Either<Either<ResultRecord<T>, Tuple3<Integer, Long, Long>>, DeadLetter>> results,
            int parts) {}

    /**
     * Builds the soak's job: the generated stream (held at its end by the environment's {@link EndGate}),
     * flink-ivm's operators with a progress epoch about every thousandth of the stream, the progress marks,
     * and the results and dead letters collected, at most {@code rate} inserts per second (0: no limit).
     * With windows, the inserts' event time is their last column, the watermarks trail it by the clock's
     * disorder, and the job emits each window's groups once, final, with a trigger every {@value
     * #WINDOWED_TRIGGER_EVERY} inserts of each ingest subtask. A restart builds the same graph, so that its
     * operators find their state.
     */
    private static <T> Built<T> build(
            StreamExecutionEnvironment env,
            MaintenancePlan plan,
            Semiring<T> semiring,
            SoakStream<T> stream,
            SoakWindows windows,
            int parallelism,
            long rate) {
        long n = stream.count();
        RateLimiterStrategy limit = rate > 0 ? RateLimiterStrategy.perSecond(rate) : RateLimiterStrategy.noOp();
        IvmOptions options = IvmOptions.defaults().withProgressEvery(Math.max(1, n / (1000L * parallelism)));
        WatermarkStrategy<InputRecord<T>> watermarks = WatermarkStrategy.noWatermarks();
        if (windows != null) {
            options = options.withWindows(windows.windows())
                    .withOutputMode(OutputMode.CHANGELOG)
                    .withWindowEmit(WindowEmit.FINAL)
                    .withSnapshotEvery(WINDOWED_TRIGGER_EVERY);
            // Aligned, as an event-time job over partitions of uneven speed should be: a source subtask
            // whose watermark runs more than ALIGNMENT ahead of the slowest pauses. Unaligned, a subtask
            // that runs ahead puts its records into epochs that the keyed operators hold back until every
            // ingest subtask has reached them, and the held-back records grow with the drift.
            watermarks = WatermarkStrategy.<InputRecord<T>>forBoundedOutOfOrderness(
                            Duration.ofMillis(windows.clock().disorder()))
                    .withTimestampAssigner((r, previous) -> eventTime(r))
                    .withWatermarkAlignment("soak-inserts", ALIGNMENT, Duration.ofMillis(200));
        }
        DataStream<InputRecord<T>> inserts = EndGate.source(
                        env,
                        new DataGeneratorSource<>(stream, n, limit, FlinkIvm.inputType(semiring)),
                        watermarks,
                        "generated inserts (soak)",
                        FlinkIvm.inputType(semiring))
                .setParallelism(parallelism)
                .uid("soak-inserts");
        IvmJob<T> job = FlinkIvm.maintain(inserts, plan, semiring, options);
        TypeInformation<Either<ResultRecord<T>, Tuple3<Integer, Long, Long>>> type =
                new EitherTypeInfo<>(job.results().getType(), new TupleTypeInfo<>(Types.INT, Types.LONG, Types.LONG));
        DataStream<Either<ResultRecord<T>, Tuple3<Integer, Long, Long>>> progressed = job.results()
                .connect(job.epochs().broadcast())
                .transform("progress per tenth", type, new ProgressOperator<T>(n))
                .setParallelism(1)
                .uid("soak-progress");
        int parts = job.results().getParallelism() > 0 ? job.results().getParallelism() : parallelism;
        return new Built<>(IvmStreams.merged(progressed, job.deadLetters()).collectAsync(), parts);
    }

    /** A windowed soak's insert's event time: its last column. */
    private static long eventTime(InputRecord<?> r) {
        return (Long) r.tuple().get(r.tuple().arity() - 1);
    }

    /**
     * One line per reason Flink gave for failed checkpoints ({@code reasons}: count per reason), and one
     * for the failures it gave none for: Flink counts a checkpoint whose trigger it refused (a task still
     * starting or already finished) among the failed ones, but keeps no history entry for it.
     */
    static List<String> failureLines(long failed, Map<String, Long> reasons) {
        List<String> lines = new ArrayList<>();
        reasons.forEach(
                (reason, count) -> lines.add("(" + count + " failed " + checkpoints(count) + ": " + reason + ")"));
        long unexplained =
                failed - reasons.values().stream().mapToLong(Long::longValue).sum();
        if (unexplained > 0) {
            lines.add("(" + unexplained + " failed " + checkpoints(unexplained)
                    + " without a reason: refused when triggered, before it started, e.g. while a task was"
                    + " starting or finishing; Flink's checkpoint history keeps no entry for those)");
        }
        return lines;
    }

    private static String checkpoints(long count) {
        return count == 1 ? "checkpoint" : "checkpoints";
    }

    /**
     * The last checkpoint: one taken once the final snapshot is out (the sources wait at their end, so it
     * holds the final state), with RocksDB's column families read after its flush; null if it failed.
     */
    private static CheckpointStats.Checkpoint lastCheckpoint(
            CheckpointStats rest, JobClient client, String jobName, PrintWriter out) {
        try {
            long id = rest.trigger(client.getJobID(), Duration.ofMinutes(10));
            CheckpointStats.Checkpoint c = rest.completed(client.getJobID(), id, Duration.ofMinutes(1));
            StateSizeReporter.refresh(jobName);
            return c;
        } catch (IOException e) {
            out.println("(no last checkpoint: " + e.getMessage() + ")");
            return null;
        }
    }

    /**
     * The checkpoint a cancelled job retained (its latest completed one), or null: the newest {@code chk-N}
     * directory with a {@code _metadata} file in the job's checkpoint directory. Flink's REST statistics can
     * lag behind a checkpoint that completed just before the cancellation and subsumed the one they name,
     * so they are only asked if the directory cannot be read.
     */
    private static String retainedCheckpoint(String checkpointUri, CheckpointStats rest, JobClient client) {
        try {
            Path jobDir = new Path(checkpointUri, client.getJobID().toHexString());
            FileSystem fs = jobDir.getFileSystem();
            long newest = -1;
            Path found = null;
            FileStatus[] entries = fs.listStatus(jobDir);
            for (FileStatus e : entries == null ? new FileStatus[0] : entries) {
                String name = e.getPath().getName();
                if (e.isDir() && name.matches("chk-\\d+") && fs.exists(new Path(e.getPath(), "_metadata"))) {
                    long id = Long.parseLong(name.substring(4));
                    if (id > newest) {
                        newest = id;
                        found = e.getPath();
                    }
                }
            }
            if (found != null) {
                return found.toString();
            }
        } catch (IOException | RuntimeException e) {
            // Fall back to what the REST API says.
        }
        try {
            return rest.latestCompletedPath(client.getJobID());
        } catch (IOException e) {
            return null;
        }
    }

    private static void cancel(JobClient client) {
        try {
            client.cancel().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            // Finished or failed already: nothing to cancel.
        }
    }

    private static String waitFor(CompletableFuture<String> savepoint) throws Exception {
        return savepoint.get(10, TimeUnit.MINUTES);
    }

    /**
     * A progress mark of {@link ProgressOperator} and what it sampled there.
     *
     * @param kind {@link ProgressOperator#START}, {@link ProgressOperator#TENTH} or {@link ProgressOperator#SNAPSHOT}
     * @param inserts inserts fully processed
     * @param millis wall clock (epoch milliseconds)
     * @param sample the process's CPU time and its threads' at the mark, or null if not known
     */
    record Mark(int kind, long inserts, long millis, ProgressOperator.Sample sample) {
        Mark(int kind, long inserts, long millis) {
            this(kind, inserts, millis, null);
        }

        long cpuNanos() {
            return sample == null ? -1 : sample.processCpuNanos();
        }

        Map<String, Long> threads() {
            return sample == null ? Map.of() : sample.threads();
        }
    }

    /**
     * The stretches between consecutive progress marks (START, then one per tenth; the snapshot's mark is
     * skipped), with the process's and each thread group's CPU time in each where both ends sampled it.
     */
    static List<SoakReport.Tenth> tenths(List<Mark> marks) {
        List<SoakReport.Tenth> tenths = new ArrayList<>();
        Mark previous = null;
        for (Mark m : marks) {
            if (m.kind() == ProgressOperator.SNAPSHOT) {
                continue;
            }
            if (previous != null) {
                long spent = m.cpuNanos() < 0 || previous.cpuNanos() < 0 ? -1 : m.cpuNanos() - previous.cpuNanos();
                Map<String, Long> threads =
                        m.threads().isEmpty() || previous.threads().isEmpty()
                                ? Map.of()
                                : ThreadCpu.minus(m.threads(), previous.threads());
                tenths.add(new SoakReport.Tenth(
                        previous.inserts(), m.inserts(), previous.millis(), m.millis(), spent, threads));
            }
            previous = m;
        }
        return tenths;
    }

    /** From the last progress mark to the final snapshot's trigger passing the sink: its enumeration. */
    private static long snapshotMillis(List<Mark> marks) {
        long lastProgress = -1;
        for (Mark m : marks) {
            if (m.kind() == ProgressOperator.SNAPSHOT) {
                return lastProgress < 0 ? -1 : m.millis() - lastProgress;
            }
            lastProgress = m.millis();
        }
        return -1;
    }

    static String bytes(long b) {
        return StateReport.bytes(b);
    }
}
