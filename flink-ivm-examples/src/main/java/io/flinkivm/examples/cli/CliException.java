package io.flinkivm.examples.cli;

/**
 * A failure that ends a command with a message for the user and an exit code: {@link #USAGE} for bad
 * arguments or a bad query, {@link #FAILURE} for I/O errors and runs that cannot complete.
 */
final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Exit code for bad arguments, a malformed query or an unsupported plan. */
    static final int USAGE = 2;
    /** Exit code for I/O errors and runs that cannot complete. */
    static final int FAILURE = 1;

    private final int exitCode;

    private CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    static CliException usage(String message) {
        return new CliException(USAGE, message, null);
    }

    static CliException failure(String message, Throwable cause) {
        return new CliException(FAILURE, message, cause);
    }

    int exitCode() {
        return exitCode;
    }
}
