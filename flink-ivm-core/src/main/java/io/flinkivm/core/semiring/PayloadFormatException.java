package io.flinkivm.core.semiring;

/** A payload's text is not a value of the semiring, or an operation left the semiring's domain. */
public class PayloadFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public PayloadFormatException(String message) {
        super(message);
    }
}
