package io.flinkivm.core.semiring;

import org.apache.flink.annotation.PublicEvolving;

/** A payload's text is not a value of the semiring, or an operation left the semiring's domain. */
@PublicEvolving
public class PayloadFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public PayloadFormatException(String message) {
        super(message);
    }
}
