package io.flinkivm.flink.types;

import java.io.Serializable;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * An input record that was rejected, with the reason and where it came from. Rejected records go to
 * a side output; they are counted and never silently dropped.
 *
 * @param origin where the record came from (file line, Kafka topic-partition@offset), or "unknown"
 * @param reason why it was rejected
 * @param record the record as text
 */
@PublicEvolving
public record DeadLetter(String origin, String reason, String record) implements Serializable {
    public DeadLetter {
        origin = origin == null ? "unknown" : origin;
        Objects.requireNonNull(reason, "reason");
        record = record == null ? "" : record;
    }
}
