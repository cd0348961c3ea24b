package io.flinkivm.core.engine.maps;

import org.apache.flink.annotation.Internal;

/**
 * Makes the in-memory engines' hash maps: plain {@link OpenHashMap}s, or maps that count every
 * lookup and write into a {@link StateCounts} (for benchmarks and tests). The choice is made once,
 * when an engine is built; a plain map's only trace of counting is a null field it tests.
 */
@Internal
public final class MemoryMaps {
    /** Plain maps, counting nothing. */
    public static final MemoryMaps PLAIN = new MemoryMaps(null);

    private final StateCounts counts;

    private MemoryMaps(StateCounts counts) {
        this.counts = counts;
    }

    /** Plain maps if {@code counts} is null, else maps that count into it. */
    public static MemoryMaps countingInto(StateCounts counts) {
        return counts == null ? PLAIN : new MemoryMaps(counts);
    }

    /** A map with {@code width} value slots per key, holding state of {@code role}. */
    public <K, V> OpenHashMap<K, V> map(StateCounts.Role role, int width) {
        return new OpenHashMap<>(width, counts == null ? null : counts.cell(role));
    }

    /** A map with one value per key, holding state of {@code role}. */
    public <K, V> OpenHashMap<K, V> map(StateCounts.Role role) {
        return map(role, 1);
    }
}
