package io.flinkivm.core.semiring;

import org.apache.flink.annotation.PublicEvolving;

/** A payload operation overflowed the payload's representation (e.g. 64-bit natural numbers). */
@PublicEvolving
public class PayloadOverflowException extends ArithmeticException {
    private static final long serialVersionUID = 1L;

    public PayloadOverflowException(String message) {
        super(message);
    }
}
