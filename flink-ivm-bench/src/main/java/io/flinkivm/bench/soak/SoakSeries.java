package io.flinkivm.bench.soak;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A soak's checkpoints as a time series ({@code soak --series FILE}), one CSV row per completed
 * checkpoint in the order they completed: {@value #HEADER}. {@code seconds} counts from the first
 * progress mark (the first inserts processed), {@code inserts} is how many the job had processed when
 * the checkpoint completed, interpolated between the progress marks, {@code state_bytes} the
 * checkpoint's full size and {@code written_bytes} what it wrote. {@code soak-plot} draws such files.
 */
public final class SoakSeries {
    /** The CSV header. */
    public static final String HEADER = "checkpoint,seconds,inserts,state_bytes,written_bytes";

    private SoakSeries() {}

    /** One checkpoint of a series. */
    public record Point(long checkpoint, double seconds, long inserts, long stateBytes, long writtenBytes) {}

    /** The series of {@code report}'s checkpoints; empty without progress marks. */
    static List<Point> of(SoakReport report) {
        List<Point> points = new ArrayList<>();
        List<SoakReport.Tenth> tenths = report.tenths();
        if (tenths.isEmpty()) {
            return points;
        }
        long origin = tenths.get(0).fromMillis();
        for (SoakReport.Checkpoint c : report.checkpoints()) {
            long done = c.triggerMillis() + c.durationMillis();
            points.add(new Point(
                    c.id(), (done - origin) / 1000.0, insertsAt(tenths, done), c.stateSize(), c.checkpointedSize()));
        }
        return points;
    }

    /** Inserts processed at {@code millis}, linear between the progress marks around it. */
    static long insertsAt(List<SoakReport.Tenth> tenths, long millis) {
        for (SoakReport.Tenth t : tenths) {
            if (millis <= t.fromMillis()) {
                return t.fromInserts();
            }
            if (millis < t.toMillis()) {
                double f = (double) (millis - t.fromMillis()) / (t.toMillis() - t.fromMillis());
                return t.fromInserts() + Math.round(f * (t.toInserts() - t.fromInserts()));
            }
        }
        return tenths.get(tenths.size() - 1).toInserts();
    }

    /** Writes {@code report}'s series to {@code file}. */
    static void write(Path file, SoakReport report) throws IOException {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (Point p : of(report)) {
            sb.append(String.format(
                    Locale.ROOT,
                    "%d,%.3f,%d,%d,%d%n",
                    p.checkpoint(),
                    p.seconds(),
                    p.inserts(),
                    p.stateBytes(),
                    p.writtenBytes()));
        }
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, sb, StandardCharsets.UTF_8);
    }

    /**
     * Reads a series that {@link #write} wrote.
     *
     * @throws IOException if it cannot be read or is not such a file (the message names the line)
     */
    public static List<Point> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).trim().equals(HEADER)) {
            throw new IOException(file + " is not a soak series: its first line must be " + HEADER);
        }
        List<Point> points = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(",");
            try {
                if (f.length != 5) {
                    throw new NumberFormatException("5 fields expected, got " + f.length);
                }
                points.add(new Point(
                        Long.parseLong(f[0]),
                        Double.parseDouble(f[1]),
                        Long.parseLong(f[2]),
                        Long.parseLong(f[3]),
                        Long.parseLong(f[4])));
            } catch (NumberFormatException e) {
                throw new IOException(file + ", line " + (i + 1) + ": " + e.getMessage() + ": " + line, e);
            }
        }
        return points;
    }
}
