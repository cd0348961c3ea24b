package io.flinkivm.examples.report;

import io.flinkivm.examples.csv.Csv;
import io.flinkivm.flink.types.ResultRecord;
import java.util.List;
import org.apache.flink.util.Collector;

/**
 * Passes on the CSV lines of the final snapshot's rows and counts them ({@link JobReport#ROWS},
 * {@link JobReport#CHECKSUM}), and the final snapshot's end markers ({@link JobReport#PARTS}); sets
 * {@link JobReport#SNAPSHOT} when they have all arrived. Runs as each part of flink-ivm's sink, chained to it.
 */
final class ReportResults<T> extends Tally<ResultRecord<T>> {
    private static final long serialVersionUID = 1L;
    private static final int ROWS = 0;
    private static final int CHECKSUM = 1;
    private static final int PARTS = 2;

    private final long snapshot;
    private final RowFormat<T> format;

    ReportResults(long snapshot, RowFormat<T> format) {
        super(List.of(JobReport.ROWS, JobReport.CHECKSUM, JobReport.PARTS), JobReport.SNAPSHOT);
        this.snapshot = snapshot;
        this.format = format;
    }

    @Override
    public void processElement(ResultRecord<T> r, Context ctx, Collector<String> out) {
        if (r.snapshotId() != snapshot) {
            return;
        }
        if (r.isEnd()) {
            add(PARTS, 1);
            offer(snapshot);
            return;
        }
        String line = Csv.line(format.fields(r.tuple(), r.payload()));
        add(ROWS, 1);
        add(CHECKSUM, ResultChecksum.hash(line));
        out.collect(line);
    }
}
