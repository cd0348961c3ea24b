package io.flinkivm.core.testing;

import io.flinkivm.core.query.Tuple;
import java.util.Objects;

/**
 * One insert of a stream: add {@code payload} to {@code tuple} in the physical relation {@code relation}.
 *
 * @param <T> the payload type
 */
public record Insert<T>(String relation, Tuple tuple, T payload) {

    public Insert {
        Objects.requireNonNull(relation, "relation");
        Objects.requireNonNull(tuple, "tuple");
        Objects.requireNonNull(payload, "payload");
    }

    /** E.g. {@code R0(1, 2) += 3}. */
    @Override
    public String toString() {
        return relation + tuple + " += " + payload;
    }
}
