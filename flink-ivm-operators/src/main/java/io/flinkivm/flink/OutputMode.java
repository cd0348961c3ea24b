package io.flinkivm.flink;

import org.apache.flink.annotation.PublicEvolving;

/** What the result stream carries at each trigger. */
@PublicEvolving
public enum OutputMode {
    /** The complete current result: every row, then an end marker. */
    SNAPSHOT,
    /**
     * Only the rows whose payload changed since the previous trigger, each once, as upserts keyed by
     * the free variables ({@code +I}, {@code +U}, optionally {@code -U} first), then an end marker
     * with their count; {@code -D} only from the fallback over a semiring that is not positive.
     * Enumerated from the root tuples that changed since the previous trigger (delta enumeration), so
     * a trigger costs in proportion to what changed, not to the result (the cyclic plan compares
     * every result with its payload at the previous trigger); no copy of the result is kept.
     */
    CHANGELOG
}
