package io.flinkivm.examples.cli;

/** An input line that cannot become an insert; the message is the reason shown to the user. */
final class RejectedLineException extends Exception {
    private static final long serialVersionUID = 1L;

    RejectedLineException(String reason) {
        // No stack trace: a rejected line is data, not a bug, and may occur on every line.
        super(reason, null, false, false);
    }
}
