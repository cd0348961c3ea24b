package io.flinkivm.examples.command;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/**
 * A failure that ends a command with a message for the user and an exit code: {@link #USAGE} for bad
 * arguments or a bad query, {@link #FAILURE} for I/O errors and runs that cannot complete.
 */
public final class CliException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Exit code for bad arguments, a malformed query or an unsupported plan. */
    public static final int USAGE = 2;
    /** Exit code for I/O errors and runs that cannot complete. */
    public static final int FAILURE = 1;

    private final int exitCode;

    private CliException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    public static CliException usage(String message) {
        return new CliException(USAGE, message, null);
    }

    public static CliException failure(String message, Throwable cause) {
        return new CliException(FAILURE, message, cause);
    }

    public int exitCode() {
        return exitCode;
    }

    /** A short reason for an I/O error, e.g. "no such file or directory". */
    public static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
