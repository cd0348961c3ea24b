package io.flinkivm.examples.cli;

import io.flinkivm.examples.command.CliException;
import io.flinkivm.examples.csv.Csv;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reports rejected input lines: the first {@link #MAX_REPORTED} on stderr, every one to the dead-letter
 * file if there is one, as {@code line_number,reason,original text} (CSV-quoted, no header). A failure
 * to write the dead-letter file ends the run ({@link CliException}, exit code 1).
 */
final class Rejects implements AutoCloseable {

    /** How many rejected lines are printed on stderr; the rest are only counted. */
    static final int MAX_REPORTED = 20;

    private static final int MAX_REASON_CHARS = 300;

    private final PrintWriter err;
    private final Path deadLetterPath;
    private final Writer deadLetter;
    private final StringBuilder sb = new StringBuilder();
    private long count;

    /** @param deadLetterPath where every rejected line goes (created or truncated now), or null */
    Rejects(PrintWriter err, Path deadLetterPath) {
        this.err = err;
        this.deadLetterPath = deadLetterPath;
        if (deadLetterPath == null) {
            this.deadLetter = null;
        } else {
            try {
                this.deadLetter = Files.newBufferedWriter(deadLetterPath, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw failure(e);
            }
        }
    }

    void reject(long lineNumber, String reason, String original) {
        count++;
        String shortReason = shorten(reason);
        if (count <= MAX_REPORTED) {
            err.println("line " + lineNumber + ": " + shortReason);
        }
        if (deadLetter != null) {
            sb.setLength(0);
            sb.append(lineNumber).append(',');
            Csv.appendField(sb, shortReason).append(',');
            Csv.appendField(sb, original).append('\n');
            try {
                deadLetter.append(sb);
            } catch (IOException e) {
                throw failure(e);
            }
        }
    }

    /** The reason cut to {@link #MAX_REASON_CHARS}, never inside a surrogate pair (half a pair is not UTF-8). */
    static String shorten(String reason) {
        if (reason.length() <= MAX_REASON_CHARS) {
            return reason;
        }
        int end = Character.isHighSurrogate(reason.charAt(MAX_REASON_CHARS - 1))
                ? MAX_REASON_CHARS - 1
                : MAX_REASON_CHARS;
        return reason.substring(0, end) + "…";
    }

    long count() {
        return count;
    }

    /** Prints how many rejected lines were not shown, and where they all are. */
    void printTotal() {
        if (count > MAX_REPORTED) {
            err.println("... and " + (count - MAX_REPORTED) + " more rejected lines (" + count + " in total)");
        }
        if (count > 0) {
            err.println(
                    deadLetterPath == null
                            ? "rejected lines were skipped; use --dead-letter FILE to keep them"
                            : "rejected lines were skipped and written to " + deadLetterPath);
        }
        err.flush();
    }

    @Override
    public void close() {
        if (deadLetter != null) {
            try {
                deadLetter.close();
            } catch (IOException e) {
                throw failure(e);
            }
        }
    }

    private CliException failure(IOException e) {
        return CliException.failure(
                "cannot write dead-letter file " + deadLetterPath + ": " + CliException.describe(e), e);
    }
}
