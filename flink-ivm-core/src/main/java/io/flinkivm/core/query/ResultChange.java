package io.flinkivm.core.query;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A result tuple whose payload changed since the previous trigger: its payload now, and before
 * ({@code previous}, null if the tuple was not in the result then).
 */
@PublicEvolving
public record ResultChange<T>(Tuple tuple, T payload, T previous) {
    /** Whether the tuple is new to the result (an insert, not an update). */
    public boolean isInsert() {
        return previous == null;
    }
}
