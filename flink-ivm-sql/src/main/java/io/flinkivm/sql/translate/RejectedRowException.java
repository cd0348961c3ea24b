package io.flinkivm.sql.translate;

import org.apache.flink.annotation.Internal;

/**
 * A table row that cannot become an insert (a NULL, a value out of range, a negative value where the
 * semiring needs a natural number); the message is the reason, for a dead letter.
 */
@Internal
public final class RejectedRowException extends Exception {
    private static final long serialVersionUID = 1L;

    public RejectedRowException(String reason) {
        super(reason, null, false, false);
    }
}
