package io.flinkivm.examples.cli;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.jobs.FlinkSettings;
import io.flinkivm.examples.jobs.IvmStreams;
import io.flinkivm.examples.report.JobReport;
import io.flinkivm.examples.report.RowFormat;
import io.flinkivm.flink.DeadLetter;
import io.flinkivm.flink.FlinkIvm;
import io.flinkivm.flink.InputRecord;
import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.ResultRecord;
import io.flinkivm.flink.source.PartitionedSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Either;
import org.apache.flink.util.CloseableIterator;

/**
 * {@code run --engine flink}: the accepted inserts of the input become a bounded source at the job's
 * parallelism p, dealt round robin ({@link PartitionedSource}: subtask i reads accepted inserts i,
 * i + p, i + 2p, ... in order); the job takes one snapshot, at the end of the input, and its rows are
 * the output. Dead letters come back on the same collected stream; an update that fails in the job
 * names its insert as "record n of ingest subtask i", which is accepted insert i + (n - 1) p.
 */
final class FlinkRun<T> {
    private static final Pattern INSERT_ORIGIN = Pattern.compile("record (\\d+) of ingest subtask (\\d+)");
    private static final String LINE_ORIGIN = "line ";

    private final MaintenancePlan plan;
    private final Semiring<T> semiring;
    private final FlinkSettings settings;
    private final List<InputRecord<T>> records = new ArrayList<>();
    private int parallelism = 1;
    private long[] lines = new long[1024];

    /** An insert that Flink rejected. {@code line} is 0 if its origin is unknown; then {@code record} says what it was. */
    record Rejected(long line, String reason, String record) {}

    FlinkRun(MaintenancePlan plan, Semiring<T> semiring, FlinkSettings settings) {
        this.plan = plan;
        this.semiring = semiring;
        this.settings = settings;
    }

    /** Adds an accepted insert from input line {@code lineNumber}. */
    void add(String relation, Tuple tuple, T payload, long lineNumber) {
        if (records.size() == lines.length) {
            lines = Arrays.copyOf(lines, lines.length * 2);
        }
        lines[records.size()] = lineNumber;
        records.add(InputRecord.insert(relation, tuple, payload, LINE_ORIGIN + lineNumber));
    }

    /**
     * Runs the job and writes the final snapshot's rows to {@code out}; with {@code report}, the job also reports
     * itself ({@link JobReport}).
     *
     * @return the inserts Flink rejected, one per input line, by line number
     * @throws IOException if {@code out} fails
     * @throws CliException if the job fails (a result payload overflow among others)
     */
    List<Rejected> execute(ResultWriter out, String jobName, Report<T> report) throws IOException {
        int count = records.size();
        if (count == 0) {
            // Without inserts every relation, and so the result, is empty (and Flink's collection source needs an
            // element).
            return List.of();
        }
        List<DeadLetter> deadLetters = new ArrayList<>();
        try (StreamExecutionEnvironment env = settings.environment()) {
            IvmJob<T> job = build(env, report);
            int parts = job.results().getParallelism();
            long snapshot = -1;
            int ends = 0;
            long endRows = 0;
            try (CloseableIterator<Either<ResultRecord<T>, DeadLetter>> it =
                    IvmStreams.merged(job).executeAndCollect(jobName)) {
                while (hasNext(it)) {
                    Either<ResultRecord<T>, DeadLetter> e = it.next();
                    if (e.isRight()) {
                        deadLetters.add(e.right());
                        continue;
                    }
                    ResultRecord<T> r = e.left();
                    if (snapshot == -1) {
                        snapshot = r.snapshotId();
                    } else if (r.snapshotId() != snapshot) {
                        throw new IllegalStateException(
                                "expected one snapshot, got " + snapshot + " and " + r.snapshotId());
                    }
                    if (r.isEnd()) {
                        ends++;
                        endRows += r.rows();
                    } else {
                        out.result(r.tuple(), r.payload(), semiring);
                    }
                }
            }
            if (ends != parts || endRows != out.rows()) {
                throw new IllegalStateException("incomplete final snapshot: " + out.rows() + " rows, " + ends + " of "
                        + parts + " end markers counting " + endRows + " rows");
            }
        } catch (CliException | IOException | IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw jobFailure(e);
        }
        return rejected(deadLetters, count);
    }

    /** Where the job reports itself ({@link JobReport#attach}): a directory or null, and the rows' CSV form. */
    record Report<T>(String directory, RowFormat<T> format) {}

    /**
     * Submits the job detached with its report ({@link JobReport}; a Flink client decided that no one waits for
     * it) and returns its id, or null if there is nothing to submit (no accepted insert: the result is empty).
     */
    JobID submit(String jobName, Report<T> report) {
        if (records.isEmpty()) {
            return null;
        }
        try (StreamExecutionEnvironment env = settings.environment()) {
            build(env, report);
            return env.execute(jobName).getJobID();
        } catch (Exception e) {
            throw CliException.failure("cannot submit the Flink job: " + e, e);
        }
    }

    /** The job over the accepted inserts, read at the environment's parallelism, with its report if asked for. */
    private IvmJob<T> build(StreamExecutionEnvironment env, Report<T> report) {
        int count = records.size();
        parallelism = Math.max(1, env.getParallelism());
        DataStream<InputRecord<T>> input = env.fromSource(
                        PartitionedSource.of(
                                PartitionedSource.roundRobin(records, parallelism),
                                FlinkIvm.inputType(semiring),
                                env.getConfig().getSerializerConfig()),
                        WatermarkStrategy.noWatermarks(),
                        "inserts (" + count + " lines)")
                .setParallelism(parallelism);
        records.clear(); // the source holds them serialized now
        IvmJob<T> job = FlinkIvm.maintain(input, plan, semiring, IvmOptions.defaults());
        if (report != null) {
            JobReport.attach(job.results(), job.deadLetters(), count, report.format(), report.directory());
        }
        return job;
    }

    private static boolean hasNext(CloseableIterator<?> it) {
        try {
            return it.hasNext();
        } catch (RuntimeException e) {
            throw jobFailure(e);
        }
    }

    private static CliException jobFailure(Exception e) {
        Throwable root = e;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ArithmeticException a) {
                return RunCommand.resultOverflow(a);
            }
            root = t;
        }
        return CliException.failure("the Flink job failed: " + root, e);
    }

    /** One entry per input line (the first reason if several updates of one insert failed), by line. */
    private List<Rejected> rejected(List<DeadLetter> deadLetters, int count) {
        TreeMap<Long, Rejected> byLine = new TreeMap<>();
        List<Rejected> unknown = new ArrayList<>();
        for (DeadLetter d : deadLetters) {
            long line = lineOf(d.origin(), count);
            String reason = INSERT_ORIGIN.matcher(d.origin()).matches()
                    ? d.reason()
                            + "; this update of the insert was not applied (in a self-join, its other atoms may have been)"
                    : d.reason();
            if (line <= 0) {
                unknown.add(new Rejected(0, reason + " (from " + d.origin() + ")", d.record()));
            } else {
                byLine.putIfAbsent(line, new Rejected(line, reason, d.record()));
            }
        }
        List<Rejected> out = new ArrayList<>(byLine.values());
        out.addAll(unknown);
        return out;
    }

    private long lineOf(String origin, int count) {
        try {
            Matcher m = INSERT_ORIGIN.matcher(origin);
            if (m.matches()) {
                long k = (Long.parseLong(m.group(1)) - 1) * parallelism + Long.parseLong(m.group(2));
                return k >= 0 && k < count ? lines[(int) k] : 0;
            }
            if (origin.startsWith(LINE_ORIGIN)) {
                return Long.parseLong(origin.substring(LINE_ORIGIN.length()));
            }
        } catch (NumberFormatException e) {
            return 0;
        }
        return 0;
    }
}
