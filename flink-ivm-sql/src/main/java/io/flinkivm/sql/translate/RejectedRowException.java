package io.flinkivm.sql.translate;

/**
 * A table row that cannot become an insert (a NULL, a value out of range, a negative value where the
 * semiring needs a natural number); the message is the reason, for a dead letter.
 */
public final class RejectedRowException extends Exception {
    private static final long serialVersionUID = 1L;

    public RejectedRowException(String reason) {
        super(reason, null, false, false);
    }
}
