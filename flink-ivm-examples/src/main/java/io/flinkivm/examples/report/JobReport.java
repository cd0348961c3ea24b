package io.flinkivm.examples.report;

import io.flinkivm.examples.csv.Csv;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.flink.types.ResultRecord;
import java.util.List;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.sink.filesystem.OutputFileConfig;
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Lets a job report itself, for when no client collects its results (a detached submission): the rows of its
 * final snapshot and its dead letters as CSV files, and a summary in the job's accumulators (Flink's REST API
 * {@code /jobs/:id/accumulators}, the web UI's "Accumulators" tab). The accumulators are kept in operator state,
 * so that after a restart from a checkpoint they count every row and dead letter once.
 *
 * <p>Files under the result directory, written by Flink's {@code FileSink} (exactly once: a part file becomes
 * visible when the checkpoint after its last line completes, or at the end of a bounded job):
 * <ul>
 *   <li>{@value #RESULT_DIRECTORY}{@code /part-*.csv}: one line per row of the final snapshot ({@link RowFormat}),
 *       no header, one or more files per sink subtask;</li>
 *   <li>{@value #DEAD_LETTER_DIRECTORY}{@code /part-*.csv}: {@code origin,reason,record} per dead letter.</li>
 * </ul>
 */
public final class JobReport {

    /** Accumulator: the id of the final snapshot, once all its parts have arrived (0 before). */
    public static final String SNAPSHOT = "result-snapshot";
    /** Accumulator: the rows of the final snapshot. */
    public static final String ROWS = "result-rows";
    /** Accumulator: the {@link ResultChecksum} of the final snapshot's rows. */
    public static final String CHECKSUM = "result-checksum";
    /** Accumulator: the end markers of the final snapshot that arrived (one per part). */
    public static final String PARTS = "result-parts";
    /** Accumulator: the dead letters (rejected inserts, failed updates). */
    public static final String DEAD_LETTERS = "dead-letters";

    /** Subdirectory of the result directory with the final snapshot's rows. */
    public static final String RESULT_DIRECTORY = "result";
    /** Subdirectory of the result directory with the dead letters. */
    public static final String DEAD_LETTER_DIRECTORY = "dead-letters";

    private JobReport() {}

    /**
     * Adds the report to a job.
     *
     * @param results the job's results; the rows of snapshot {@code snapshot} are the final result
     * @param deadLetters the job's dead letters
     * @param snapshot the id of the final snapshot (for a bounded input: the number of inserts)
     * @param format how a result row becomes CSV fields
     * @param directory where the files go (a path or a URI every TaskManager can write to), or null for the
     *     accumulators only
     */
    public static <T> void attach(
            DataStream<ResultRecord<T>> results,
            DataStream<DeadLetter> deadLetters,
            long snapshot,
            RowFormat<T> format,
            String directory) {
        DataStream<String> rows = results.process(new ReportResults<>(snapshot, format), Types.STRING)
                .name("report snapshot " + snapshot)
                .uid("report-results")
                .setParallelism(results.getParallelism());
        DataStream<String> letters = deadLetters
                .process(new ReportDeadLetters(), Types.STRING)
                .name("report dead letters")
                .uid("report-dead-letters")
                .setParallelism(deadLetters.getParallelism());
        if (directory == null) {
            rows.sinkTo(new DiscardingSink<>()).name("discard").setParallelism(rows.getParallelism());
            letters.sinkTo(new DiscardingSink<>()).name("discard").setParallelism(letters.getParallelism());
            return;
        }
        rows.sinkTo(files(directory, RESULT_DIRECTORY))
                .name("files " + RESULT_DIRECTORY)
                .uid("report-result-files")
                .setParallelism(rows.getParallelism());
        letters.sinkTo(files(directory, DEAD_LETTER_DIRECTORY))
                .name("files " + DEAD_LETTER_DIRECTORY)
                .uid("report-dead-letter-files")
                .setParallelism(letters.getParallelism());
    }

    /** The CSV line of a dead letter: {@code origin,reason,record}. */
    static String line(DeadLetter d) {
        return Csv.line(List.of(d.origin(), d.reason(), d.record()));
    }

    private static FileSink<String> files(String directory, String subdirectory) {
        return FileSink.forRowFormat(new Path(new Path(directory), subdirectory), new SimpleStringEncoder<String>())
                .withBucketAssigner(new BasePathBucketAssigner<>())
                .withRollingPolicy(OnCheckpointRollingPolicy.build())
                .withOutputFileConfig(OutputFileConfig.builder()
                        .withPartPrefix("part")
                        .withPartSuffix(".csv")
                        .build())
                .build();
    }
}
