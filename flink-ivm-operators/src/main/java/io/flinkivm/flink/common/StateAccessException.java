package io.flinkivm.flink.common;

import org.apache.flink.annotation.Internal;

/** A Flink state backend failed to read or write (wraps the backend's checked exception). */
@Internal
public class StateAccessException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StateAccessException(String message, Throwable cause) {
        super(message, cause);
    }
}
