package io.flinkivm.core.engine.maps;

import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.flink.annotation.Internal;

/**
 * The in-memory engines' hash map: open addressing with linear probing over three parallel arrays
 * (hash codes, keys, values). Against {@link java.util.HashMap} it has no entry objects, so a lookup
 * follows one pointer fewer, the state takes about a third less memory, and the garbage collector
 * has a third fewer objects to trace and copy; as the state outgrows the caches these are the costs
 * that grow. Keys must not be null and must have stable hash codes. Not thread-safe.
 *
 * <p>A map of width w > 1 keeps w value slots per key in place (a join view's child payloads), read
 * and written through {@link #entry}, {@link #addEntry}, {@link #slots} and {@link #base}; an
 * entry's index is valid until the next {@link #addEntry} or {@link #remove}.
 *
 * <p>A map made with a {@link StateCounts} cell counts its lookups ({@link #get}, {@link #entry}) as
 * reads and its {@link #put}s, {@link #addEntry}s and {@link #remove}s as writes (see {@link MemoryMaps});
 * without one it only tests a field that is always null. A counting subclass would cost nothing in a JVM
 * that never loads it, but where both kinds run (the benchmark's timed and counting runs) it splits
 * the JIT's type profiles at every call site of the maps.
 */
@Internal
public final class OpenHashMap<K, V> implements KeyValueState<K, V> {
    private static final int MIN_CAPACITY = 16;

    /** Stored hash codes; 0 marks an empty slot (a hash code of 0 is stored as 1). */
    private int[] hashes;

    private Object[] keys;
    private Object[] values;
    private final int width;
    private int mask;
    private int size;
    private int resizeAt;
    /** Where reads and writes are counted; null: not counted. */
    private final StateCounts.Cell counts;

    /** A map with one value per key. */
    public OpenHashMap() {
        this(1);
    }

    /** A map with {@code width} value slots per key. */
    public OpenHashMap(int width) {
        this(width, null);
    }

    /** A map with {@code width} value slots per key that counts its operations into {@code counts} (if not null). */
    OpenHashMap(int width, StateCounts.Cell counts) {
        if (width < 1) {
            throw new IllegalArgumentException("width must be >= 1, got " + width);
        }
        this.counts = counts;
        this.width = width;
        allocate(MIN_CAPACITY);
    }

    private void allocate(int capacity) {
        hashes = new int[capacity];
        keys = new Object[capacity];
        values = new Object[capacity * width];
        mask = capacity - 1;
        resizeAt = capacity / 2;
    }

    private static int hash(Object key) {
        int h = key.hashCode() * 0x9E3779B9;
        h ^= h >>> 16;
        return h == 0 ? 1 : h;
    }

    private int find(Object key, int h) {
        int i = h & mask;
        while (true) {
            int stored = hashes[i];
            if (stored == 0) {
                return -1;
            }
            if (stored == h && key.equals(keys[i])) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /** The value of {@code key}, or null (for width 1). */
    @Override
    @SuppressWarnings("unchecked")
    public V get(K key) {
        if (counts != null) {
            counts.reads++;
        }
        int i = find(key, hash(key));
        return i < 0 ? null : (V) values[i * width];
    }

    /** The index of {@code key}'s entry, or -1. */
    public int entry(K key) {
        if (counts != null) {
            counts.reads++;
        }
        return find(key, hash(key));
    }

    /** Adds an entry for {@code key}, which must be absent, with all slots null; returns its index. */
    public int addEntry(K key) {
        if (counts != null) {
            counts.writes++;
        }
        int h = hash(key);
        if (size + 1 > resizeAt) {
            rehash(2 * hashes.length);
        }
        int i = h & mask;
        while (hashes[i] != 0) {
            i = (i + 1) & mask;
        }
        hashes[i] = h;
        keys[i] = key;
        size++;
        return i;
    }

    /** The value slots of every entry: entry {@code e}'s slot {@code s} is at {@code base(e) + s}. */
    public Object[] slots() {
        return values;
    }

    /** Where entry {@code e}'s value slots start in {@link #slots()}. */
    public int base(int e) {
        return e * width;
    }

    /** Associates {@code value} with {@code key}; a null value removes the key (for width 1). */
    @Override
    public void put(K key, V value) {
        if (value == null) {
            remove(key);
            return;
        }
        if (counts != null) {
            counts.writes++;
        }
        int h = hash(key);
        int i = h & mask;
        while (true) {
            int stored = hashes[i];
            if (stored == 0) {
                break;
            }
            if (stored == h && key.equals(keys[i])) {
                values[i * width] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        hashes[i] = h;
        keys[i] = key;
        values[i * width] = value;
        if (++size > resizeAt) {
            rehash(2 * hashes.length);
        }
    }

    @Override
    public void remove(K key) {
        if (counts != null) {
            counts.writes++;
        }
        int i = find(key, hash(key));
        if (i < 0) {
            return;
        }
        size--;
        // Backward-shift deletion: move later entries of the probe run into the hole.
        int hole = i;
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            int h = hashes[j];
            if (h == 0) {
                break;
            }
            int home = h & mask;
            boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
            if (movable) {
                hashes[hole] = h;
                keys[hole] = keys[j];
                System.arraycopy(values, j * width, values, hole * width, width);
                hole = j;
            }
        }
        hashes[hole] = 0;
        keys[hole] = null;
        Arrays.fill(values, hole * width, hole * width + width, null);
    }

    private void rehash(int capacity) {
        int[] oldHashes = hashes;
        Object[] oldKeys = keys;
        Object[] oldValues = values;
        allocate(capacity);
        for (int s = 0; s < oldHashes.length; s++) {
            int h = oldHashes[s];
            if (h != 0) {
                int i = h & mask;
                while (hashes[i] != 0) {
                    i = (i + 1) & mask;
                }
                hashes[i] = h;
                keys[i] = oldKeys[s];
                System.arraycopy(oldValues, s * width, values, i * width, width);
            }
        }
    }

    /** Number of keys. */
    public int size() {
        return size;
    }

    /** Value slots per key. */
    public int width() {
        return width;
    }

    /** The slot positions of the table: entries are at indexes below this whose {@link #keyAt} is not null. */
    public int capacity() {
        return hashes.length;
    }

    /** The key at table index {@code i} (below {@link #capacity()}), or null if that slot is empty. */
    @SuppressWarnings("unchecked")
    public K keyAt(int i) {
        return hashes[i] == 0 ? null : (K) keys[i];
    }

    /** Removes every entry (keeps the table's capacity). */
    public void clear() {
        Arrays.fill(hashes, 0);
        Arrays.fill(keys, null);
        Arrays.fill(values, null);
        size = 0;
    }

    /** The entries (for width 1), in no particular order; the map must not change while iterating. */
    public Iterator<Map.Entry<K, V>> entries() {
        return new Iterator<>() {
            private int next = advance(0);

            private int advance(int from) {
                int i = from;
                while (i < hashes.length && hashes[i] == 0) {
                    i++;
                }
                return i;
            }

            @Override
            public boolean hasNext() {
                return next < hashes.length;
            }

            @Override
            @SuppressWarnings("unchecked")
            public Map.Entry<K, V> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Map.Entry<K, V> e = new AbstractMap.SimpleImmutableEntry<>((K) keys[next], (V) values[next * width]);
                next = advance(next + 1);
                return e;
            }
        };
    }
}
