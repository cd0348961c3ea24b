package io.flinkivm.examples.kafka;

/** A Kafka record that cannot become an insert; the message is the reason written to the dead-letter topic. */
final class RejectedRecordException extends Exception {
    private static final long serialVersionUID = 1L;

    RejectedRecordException(String reason) {
        // No stack trace: a rejected record is data, not a bug, and may come in every record.
        super(reason, null, false, false);
    }
}
