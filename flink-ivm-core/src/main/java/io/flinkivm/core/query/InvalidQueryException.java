package io.flinkivm.core.query;

import org.apache.flink.annotation.PublicEvolving;

/**
 * The user's query is malformed or meaningless: a parse error (with the position in the text) or a
 * semantic error such as a head variable missing from the body.
 */
@PublicEvolving
public class InvalidQueryException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final int position;

    public InvalidQueryException(String message) {
        this(message, -1);
    }

    /**
     * @param position zero-based character offset in the query text, or -1 if none applies
     */
    public InvalidQueryException(String message, int position) {
        super(message);
        this.position = position;
    }

    /** Zero-based character offset of the error in the query text, or -1. */
    public int position() {
        return position;
    }
}
