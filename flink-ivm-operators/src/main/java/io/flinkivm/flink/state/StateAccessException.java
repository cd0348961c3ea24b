package io.flinkivm.flink.state;

/** A Flink state backend failed to read or write (wraps the backend's checked exception). */
public class StateAccessException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StateAccessException(String message, Throwable cause) {
        super(message, cause);
    }
}
