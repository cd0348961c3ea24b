package io.flinkivm.examples.cli;

import io.flinkivm.core.plan.KeyedPlan;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.examples.command.CliException;
import io.flinkivm.examples.jobs.FlinkSettings;
import io.flinkivm.examples.jobs.IvmStreams;
import io.flinkivm.examples.report.JobReport;
import io.flinkivm.examples.report.RowFormat;
import io.flinkivm.flink.FlinkIvm;
import io.flinkivm.flink.IvmJob;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.OutputMode;
import io.flinkivm.flink.source.PartitionedSource;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.InputRecord;
import io.flinkivm.flink.types.ResultRecord;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
 * i + p, i + 2p, ... in order). Without triggers the job takes one snapshot, at the end of the input,
 * and its rows are the output. With triggers ({@link RunTriggers}) a snapshot request goes into every
 * subtask's input after its share of the first k·N accepted lines, so that trigger k is exactly those
 * lines at any parallelism; the rows of the parallel sink subtasks are put back in trigger order. Dead
 * letters come back on the same collected stream; an update that fails in the job names its insert as
 * "record n of ingest subtask i", the n-th record (requests included) of partition i.
 */
final class FlinkRun<T> {
    private static final Pattern INSERT_ORIGIN = Pattern.compile("record (\\d+) of ingest subtask (\\d+)");
    private static final String LINE_ORIGIN = "line ";

    private final MaintenancePlan plan;
    private final Semiring<T> semiring;
    private final FlinkSettings settings;
    private final RunTriggers triggers;
    private final List<InputRecord<T>> records = new ArrayList<>();
    private long[] lines = new long[1024];
    /** Per partition, the input line of each of its records (0 for a snapshot request), by position from 0. */
    private long[][] partitionLines = new long[0][];

    private long triggersWritten;
    private final Duration stateTtl;
    private long resultSize;

    /** An insert that Flink rejected. {@code line} is 0 if its origin is unknown; then {@code record} says what it was. */
    record Rejected(long line, String reason, String record) {}

    /** @param stateTtl the state TTL ({@code --state-ttl}), or null: none */
    FlinkRun(
            MaintenancePlan plan,
            Semiring<T> semiring,
            FlinkSettings settings,
            RunTriggers triggers,
            Duration stateTtl) {
        this.stateTtl = stateTtl;
        this.plan = plan;
        this.semiring = semiring;
        this.settings = settings;
        this.triggers = triggers;
    }

    /**
     * Adds an accepted change from input line {@code lineNumber}; a delete or {@code -U} was checked
     * against the live rows while the input was read ({@link LiveRowCheck}).
     */
    void add(ChangeKind kind, String relation, Tuple tuple, T payload, long lineNumber) {
        if (records.size() == lines.length) {
            lines = Arrays.copyOf(lines, lines.length * 2);
        }
        lines[records.size()] = lineNumber;
        records.add(InputRecord.change(kind, relation, tuple, payload, LINE_ORIGIN + lineNumber));
    }

    /** Adds a row of {@code relation} that the query's filter dropped, for its key stage's mark, from line {@code lineNumber}. */
    void addDropped(ChangeKind kind, String relation, Tuple tuple, long lineNumber) {
        if (records.size() == lines.length) {
            lines = Arrays.copyOf(lines, lines.length * 2);
        }
        lines[records.size()] = lineNumber;
        records.add(InputRecord.dropped(kind, relation, tuple, semiring.one(), LINE_ORIGIN + lineNumber));
    }

    /** Triggers written by {@link #execute} (with triggers). */
    long triggersWritten() {
        return triggersWritten;
    }

    /** The result's size after the last trigger written by {@link #execute} (with triggers). */
    long resultSize() {
        return resultSize;
    }

    /** Records how many inserts the first {@code acceptedLines} accepted lines made (call after each accepted line). */
    void lineAccepted(long acceptedLines) {
        triggers.lineAccepted(acceptedLines, records.size());
    }

    /**
     * Runs the job and writes its output to {@code out}: the final snapshot's rows, or with triggers
     * every trigger's rows (a snapshot or the changes), in trigger order; with {@code report}, the job also
     * reports itself ({@link JobReport}).
     *
     * @return the inserts Flink rejected, one per input line, by line number
     * @throws IOException if {@code out} fails
     * @throws CliException if the job fails (a result payload overflow among others)
     */
    List<Rejected> execute(ResultWriter out, String jobName, Report<T> report) throws IOException {
        int count = records.size();
        triggers.endOfInput(count);
        if (count == 0) {
            // Without inserts every relation, and so the result, is empty (and Flink's collection source needs an
            // element).
            return List.of();
        }
        List<DeadLetter> deadLetters = new ArrayList<>();
        try (StreamExecutionEnvironment env = settings.environment()) {
            IvmJob<T> job = build(env, report);
            Output output = out.layout() == ResultWriter.Layout.RESULT
                    ? new FinalSnapshot(out, job.results().getParallelism())
                    : new InTriggerOrder(out, job.results().getParallelism());
            try (CloseableIterator<Either<ResultRecord<T>, DeadLetter>> it =
                    IvmStreams.merged(job).executeAndCollect(jobName)) {
                while (hasNext(it)) {
                    Either<ResultRecord<T>, DeadLetter> e = it.next();
                    if (e.isRight()) {
                        deadLetters.add(e.right());
                    } else {
                        output.accept(e.left());
                    }
                }
            }
            output.finish();
        } catch (CliException | IOException | IllegalStateException e) {
            throw e;
        } catch (Exception e) {
            throw jobFailure(e);
        }
        return rejected(deadLetters);
    }

    /**
     * The partition of record {@code j}: round robin, except that under deletes the changes of a row of a
     * relation with a key stage go to the partition of its key value, in order, so that a key row's update
     * (its old row, then its new one) reaches the stage in order, as a CDC source keyed by the table's
     * primary key sends it.
     */
    private int partition(InputRecord<T> r, int j, int p) {
        if (plan instanceof KeyedPlan keyed && !plan.inputs().isInsertOnly() && keyed.stage(r.relation()) >= 0) {
            Tuple key = r.tuple().project(keyed.query().keyOf(r.relation()).positionArray());
            return Math.floorMod(31 * r.relation().hashCode() + key.hashCode(), p);
        }
        return j % p;
    }

    /**
     * The records dealt round robin into {@code p} partitions, with a snapshot request in every
     * partition after its share of the records of each trigger's lines.
     */
    private List<List<InputRecord<T>>> partitions(int p) {
        List<List<InputRecord<T>>> out = new ArrayList<>(p);
        List<long[]> partLines = new ArrayList<>(p);
        int[] sizes = new int[p];
        long[] requests = triggers.requestPoints();
        for (int i = 0; i < p; i++) {
            int share = records.size() / p + 1 + requests.length;
            out.add(new ArrayList<>(share));
            partLines.add(new long[share]);
        }
        int next = 0;
        for (int j = 0; j <= records.size(); j++) {
            for (; next < requests.length && requests[next] == j; next++) {
                for (int i = 0; i < p; i++) {
                    out.get(i).add(InputRecord.snapshotRequest());
                    partLines.get(i)[sizes[i]++] = 0;
                }
            }
            if (j < records.size()) {
                int part = partition(records.get(j), j, p);
                out.get(part).add(records.get(j));
                partLines.get(part)[sizes[part]++] = lines[j];
            }
        }
        partitionLines = partLines.toArray(new long[0][]);
        return out;
    }

    /** Where the job's result records go. */
    private interface Output {
        <X> void accept(ResultRecord<X> r) throws IOException;

        /** Checks that everything expected arrived. */
        void finish();
    }

    /** The one snapshot at the end of the input (no triggers): its rows, checked against its end markers. */
    private final class FinalSnapshot implements Output {
        private final ResultWriter out;
        private final int parts;
        private long snapshot = -1;
        private int ends;
        private long endRows;

        FinalSnapshot(ResultWriter out, int parts) {
            this.out = out;
            this.parts = parts;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <X> void accept(ResultRecord<X> r) throws IOException {
            if (snapshot == -1) {
                snapshot = r.snapshotId();
            } else if (r.snapshotId() != snapshot) {
                throw new IllegalStateException("expected one snapshot, got " + snapshot + " and " + r.snapshotId());
            }
            if (r.isEnd()) {
                ends++;
                endRows += r.rows();
            } else {
                out.result(r.tuple(), (T) r.payload(), semiring);
            }
        }

        @Override
        public void finish() {
            if (ends != parts || endRows != out.rows()) {
                throw new IllegalStateException("incomplete final snapshot: " + out.rows() + " rows, " + ends + " of "
                        + parts + " end markers counting " + endRows + " rows");
            }
        }
    }

    /**
     * Every trigger's rows, in trigger order: the sink subtasks each emit the triggers in order, but
     * their records interleave. Rows of the lowest incomplete trigger are written as they arrive; rows
     * of later triggers wait until every subtask has ended the triggers before them.
     */
    private final class InTriggerOrder implements Output {
        private final ResultWriter out;
        private final int parts;
        /** Triggers seen and not yet complete, by id: end markers, rows announced and rows received. */
        private final TreeMap<Long, Pending> open = new TreeMap<>();

        private long lastDone;

        InTriggerOrder(ResultWriter out, int parts) {
            this.out = out;
            this.parts = parts;
        }

        private final class Pending {
            int ends;
            long announced;
            long received;
            final List<ResultRecord<?>> waiting = new ArrayList<>();
        }

        @Override
        public <X> void accept(ResultRecord<X> r) throws IOException {
            long id = r.snapshotId();
            if (id <= lastDone) {
                throw new IllegalStateException("trigger " + id + " after trigger " + lastDone + " was complete");
            }
            Pending p = open.computeIfAbsent(id, k -> new Pending());
            if (r.isEnd()) {
                p.ends++;
                p.announced += r.rows();
            } else if (id == open.firstKey()) {
                write(id, r);
                p.received++;
            } else {
                p.waiting.add(r);
                p.received++;
            }
            while (!open.isEmpty() && open.firstEntry().getValue().ends == parts) {
                Map.Entry<Long, Pending> done = open.pollFirstEntry();
                if (done.getValue().announced != done.getValue().received) {
                    throw new IllegalStateException("trigger " + done.getKey() + ": " + done.getValue().received
                            + " rows, but its end markers count " + done.getValue().announced);
                }
                lastDone = done.getKey();
                triggersWritten++;
                if (out.layout() == ResultWriter.Layout.SNAPSHOTS) {
                    resultSize = done.getValue().received;
                }
                if (!open.isEmpty()) {
                    Pending next = open.firstEntry().getValue();
                    for (ResultRecord<?> w : next.waiting) {
                        write(open.firstKey(), w);
                    }
                    next.waiting.clear();
                }
            }
        }

        @SuppressWarnings("unchecked")
        private void write(long id, ResultRecord<?> r) throws IOException {
            long trigger = triggers.ordinal(id);
            ResultRecord<T> row = (ResultRecord<T>) r;
            if (row.kind() == ResultRecord.Kind.INSERT) {
                resultSize++;
            } else if (row.kind() == ResultRecord.Kind.DELETE) {
                resultSize--;
            }
            if (out.layout() == ResultWriter.Layout.SNAPSHOTS) {
                out.snapshotRow(trigger, row.tuple(), row.payload(), semiring);
            } else {
                out.record(trigger, row, semiring);
            }
        }

        @Override
        public void finish() {
            if (!open.isEmpty()) {
                throw new IllegalStateException("incomplete trigger " + open.firstKey() + ": "
                        + open.firstEntry().getValue().ends + " of " + parts + " end markers");
            }
            if (lastDone != triggers.lastId()) {
                throw new IllegalStateException(
                        "the last trigger reflects " + lastDone + " inserts, expected " + triggers.lastId());
            }
        }
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
        triggers.endOfInput(records.size());
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
        int parallelism = Math.max(1, env.getParallelism());
        DataStream<InputRecord<T>> input = env.fromSource(
                        PartitionedSource.of(
                                partitions(parallelism),
                                FlinkIvm.inputType(semiring),
                                env.getConfig().getSerializerConfig()),
                        WatermarkStrategy.noWatermarks(),
                        "inserts (" + count + " lines)")
                .setParallelism(parallelism);
        records.clear(); // the source holds them serialized now
        // The lines' deletes were checked while they were read: records may go to any split.
        IvmOptions options = IvmOptions.defaults().withRowCheck(false).withStateTtl(stateTtl);
        if (triggers.mode() == OutputMode.CHANGELOG) {
            options = options.withOutputMode(OutputMode.CHANGELOG).withUpdateBefore(triggers.updateBefore());
        }
        IvmJob<T> job = FlinkIvm.maintain(input, plan, semiring, options);
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
    private List<Rejected> rejected(List<DeadLetter> deadLetters) {
        TreeMap<Long, Rejected> byLine = new TreeMap<>();
        List<Rejected> unknown = new ArrayList<>();
        for (DeadLetter d : deadLetters) {
            long line = lineOf(d.origin());
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

    private long lineOf(String origin) {
        try {
            Matcher m = INSERT_ORIGIN.matcher(origin);
            if (m.matches()) {
                long position = Long.parseLong(m.group(1));
                int subtask = Integer.parseInt(m.group(2));
                if (subtask >= partitionLines.length || position < 1) {
                    return 0;
                }
                long[] part = partitionLines[subtask];
                return position <= part.length ? part[(int) (position - 1)] : 0;
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
