package io.flinkivm.core.engine;

/**
 * Makes the in-memory engines' hash maps: plain {@link OpenHashMap}s, or maps that count every
 * lookup and write into a {@link StateCounts} (for benchmarks and tests). The choice is made once,
 * when an engine is built, so a plain engine's hot path has no counting in it.
 */
final class MemoryMaps {
    /** Plain maps, counting nothing. */
    static final MemoryMaps PLAIN = new MemoryMaps(null);

    private final StateCounts counts;

    private MemoryMaps(StateCounts counts) {
        this.counts = counts;
    }

    /** Plain maps if {@code counts} is null, else maps that count into it. */
    static MemoryMaps countingInto(StateCounts counts) {
        return counts == null ? PLAIN : new MemoryMaps(counts);
    }

    /** A map with {@code width} value slots per key, holding state of {@code role}. */
    <K, V> OpenHashMap<K, V> map(StateCounts.Role role, int width) {
        return counts == null ? new OpenHashMap<>(width) : new Counting<>(width, counts.cell(role));
    }

    /** A map with one value per key, holding state of {@code role}. */
    <K, V> OpenHashMap<K, V> map(StateCounts.Role role) {
        return map(role, 1);
    }

    /** Counts {@link #get} and {@link #entry} as reads, {@link #put}, {@link #addEntry} and {@link #remove} as writes. */
    private static final class Counting<K, V> extends OpenHashMap<K, V> {
        private final StateCounts.Cell cell;

        Counting(int width, StateCounts.Cell cell) {
            super(width);
            this.cell = cell;
        }

        @Override
        public V get(K key) {
            cell.reads++;
            return super.get(key);
        }

        @Override
        int entry(K key) {
            cell.reads++;
            return super.entry(key);
        }

        @Override
        int addEntry(K key) {
            cell.writes++;
            return super.addEntry(key);
        }

        @Override
        public void put(K key, V value) {
            if (value == null) {
                remove(key);
                return;
            }
            cell.writes++;
            super.put(key, value);
        }

        @Override
        public void remove(K key) {
            cell.writes++;
            super.remove(key);
        }
    }
}
