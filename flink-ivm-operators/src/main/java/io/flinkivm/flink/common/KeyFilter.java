package io.flinkivm.flink.common;

import io.flinkivm.core.query.Tuple;
import java.util.Arrays;
import org.apache.flink.annotation.Internal;

/**
 * A Bloom filter of the keys a subtask's keyed map states may hold: the operator's key, a tag and a
 * tuple. A key that was never added is (with a false-positive rate of about 1%) answered absent
 * without a state read; a key that was added is always answered "maybe". Blocked (all bits of a key
 * in one 64-byte block, one cache line per test) with about 10 bits per key, and scalable: when a
 * filter holds the keys it was sized for, a larger one takes the next keys, and a test asks each. A filter is four times as large as the one before, so that a few filters hold millions of keys
 * (a key never added is tested in every one). Keys are never removed (a removed key stays "maybe"). 10 to 20 bits (1.3 to 2.6 bytes) per key on the heap, at least 512 KiB.
 * Not thread-safe.
 */
@Internal
public final class KeyFilter {
    /** Bits per key a filter is sized for. */
    private static final int BITS_PER_KEY = 10;
    /** Bits set per key, all in one block of 512 bits. */
    private static final int PROBES = 6;
    /** The first filter's keys (512 KiB). */
    private static final int FIRST_CAPACITY = 1 << 18;
    /** How much larger each next filter is. */
    private static final int GROWTH = 4;

    private long[][] filters = new long[0][];
    private int[] capacities = new int[0];
    private int inLast;
    private long keys;

    public KeyFilter() {
        grow(FIRST_CAPACITY);
    }

    /** Remembers that the states may hold this key. */
    public void add(Object operatorKey, int tag, Tuple tuple) {
        long h = hash(operatorKey, tag, tuple);
        if (mightContain(h)) {
            return;
        }
        int last = filters.length - 1;
        if (inLast >= capacities[last]) {
            grow(GROWTH * capacities[last]);
            last++;
        }
        set(filters[last], h);
        inLast++;
        keys++;
    }

    /** False if this key was never {@link #add}ed; true if it was, or rarely if not. */
    public boolean mightContain(Object operatorKey, int tag, Tuple tuple) {
        return mightContain(hash(operatorKey, tag, tuple));
    }

    /** Keys added (each distinct key once, unless it was a false positive when it came). */
    public long keys() {
        return keys;
    }

    /** Bytes of the filters' bit arrays. */
    public long bytes() {
        long total = 0;
        for (long[] f : filters) {
            total += 8L * f.length;
        }
        return total;
    }

    private boolean mightContain(long h) {
        // The newest filter is the largest and holds most keys.
        for (int i = filters.length - 1; i >= 0; i--) {
            if (test(filters[i], h)) {
                return true;
            }
        }
        return false;
    }

    private void grow(int capacity) {
        // A power of two of 512-bit blocks (8 longs each) with at least BITS_PER_KEY bits per key.
        int blocks = Integer.highestOneBit(Math.max(1, (capacity * BITS_PER_KEY + 511) / 512) * 2 - 1);
        filters = Arrays.copyOf(filters, filters.length + 1);
        filters[filters.length - 1] = new long[blocks * 8];
        capacities = Arrays.copyOf(capacities, capacities.length + 1);
        capacities[capacities.length - 1] = capacity;
        inLast = 0;
    }

    private static void set(long[] f, long h) {
        int base = block(f, h);
        int bits = (int) h;
        for (int i = 0; i < PROBES; i++) {
            int bit = bits & 511;
            f[base + (bit >>> 6)] |= 1L << bit;
            bits = Integer.rotateRight(bits, 9) * 0x9E3779B1 + i;
        }
    }

    private static boolean test(long[] f, long h) {
        int base = block(f, h);
        int bits = (int) h;
        for (int i = 0; i < PROBES; i++) {
            int bit = bits & 511;
            if ((f[base + (bit >>> 6)] & (1L << bit)) == 0) {
                return false;
            }
            bits = Integer.rotateRight(bits, 9) * 0x9E3779B1 + i;
        }
        return true;
    }

    /** The first long of the key's block. */
    private static int block(long[] f, long h) {
        int blocks = f.length >>> 3;
        return ((int) (h >>> 40) & (blocks - 1)) << 3;
    }

    private static long hash(Object operatorKey, int tag, Tuple tuple) {
        long h = ((long) tuple.hashCode() << 32) ^ (tag * 0x9E3779B97F4A7C15L);
        h ^= (operatorKey == null ? 0 : operatorKey.hashCode()) * 0xC2B2AE3D27D4EB4FL;
        // MurmurHash3's finalizer: every input bit reaches every output bit.
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h;
    }
}
