package io.flinkivm.examples.report;

import io.flinkivm.flink.types.DeadLetter;
import java.util.List;
import org.apache.flink.util.Collector;

/** Passes on each dead letter as a CSV line ({@code origin,reason,record}) and counts it ({@link JobReport#DEAD_LETTERS}). */
final class ReportDeadLetters extends Tally<DeadLetter> {
    private static final long serialVersionUID = 1L;

    ReportDeadLetters() {
        super(List.of(JobReport.DEAD_LETTERS), null);
    }

    @Override
    public void processElement(DeadLetter d, Context ctx, Collector<String> out) {
        add(0, 1);
        out.collect(JobReport.line(d));
    }
}
