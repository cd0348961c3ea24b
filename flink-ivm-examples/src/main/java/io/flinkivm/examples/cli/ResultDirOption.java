package io.flinkivm.examples.cli;

import io.flinkivm.examples.jobs.FlinkSettings;
import io.flinkivm.examples.report.JobReport;
import picocli.CommandLine.Option;

/**
 * {@code --result-dir DIR}, declared once and mixed into {@code run} and {@code example}: the job writes its
 * final result and dead letters there itself ({@link JobReport}), which is how a detached submission (the web UI,
 * the REST API, {@code flink run -d}) delivers its result.
 */
public final class ResultDirOption {

    @Option(
            names = "--result-dir",
            paramLabel = "DIR",
            description = {
                "The job writes the final result's rows to DIR/" + JobReport.RESULT_DIRECTORY + "/part-*.csv (no"
                        + " header) and its dead letters to DIR/" + JobReport.DEAD_LETTER_DIRECTORY
                        + "/part-*.csv (origin,reason,record), exactly once, and counts them in its accumulators"
                        + " (" + JobReport.SNAPSHOT + ", " + JobReport.ROWS + ", " + JobReport.CHECKSUM + ", "
                        + JobReport.DEAD_LETTERS + "). A path or a URI every TaskManager can write to. Required when"
                        + " the job is submitted detached (flink run -d, the web UI, the REST API): nobody collects"
                        + " its result then."
            })
    String resultDir;

    /** The directory as a URI (a path becomes an absolute file:// URI), or null if not given. */
    public String uri() {
        return resultDir == null ? null : FlinkSettings.toUri(resultDir);
    }

    /** The option as given, or null. */
    public String given() {
        return resultDir;
    }
}
