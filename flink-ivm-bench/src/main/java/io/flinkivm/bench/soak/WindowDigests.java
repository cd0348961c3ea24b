package io.flinkivm.bench.soak;

import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A windowed result in little memory: per window (the result tuple's values at the head's window
 * columns), how many tuples it has and the sum of a 64-bit hash of each tuple with its payload. Two
 * results with the same digests per window are equal but for a hash collision that cancels out; a
 * missing, extra or changed tuple changes its window's count or sum.
 */
final class WindowDigests {
    /** Positions in a result tuple of the head's window variables. */
    private final int[] positions;

    private final Map<String, long[]> windows = new TreeMap<>();

    WindowDigests(int[] positions) {
        this.positions = positions.clone();
    }

    /** Adds one result tuple with its payload. */
    void add(Tuple tuple, Object payload) {
        long[] d = windows.computeIfAbsent(window(tuple), k -> new long[2]);
        d[0]++;
        d[1] += mix(((long) tuple.hashCode() << 32) ^ (Objects.hashCode(payload) & 0xffffffffL));
    }

    /** The windows, each as the text of its values at the head's window columns. */
    private String window(Tuple tuple) {
        StringBuilder sb = new StringBuilder();
        for (int p : positions) {
            sb.append(sb.length() == 0 ? "" : ", ").append(tuple.get(p));
        }
        return sb.toString();
    }

    /** Tuples added over all windows. */
    long tuples() {
        long n = 0;
        for (long[] d : windows.values()) {
            n += d[0];
        }
        return n;
    }

    int windows() {
        return windows.size();
    }

    /** One line per window whose digest differs from {@code other}'s (at most {@code limit}). */
    List<String> differences(WindowDigests other, String mine, String theirs, int limit) {
        List<String> out = new ArrayList<>();
        Map<String, long[]> all = new TreeMap<>(windows);
        other.windows.forEach(all::putIfAbsent);
        for (String w : all.keySet()) {
            long[] a = windows.getOrDefault(w, new long[2]);
            long[] b = other.windows.getOrDefault(w, new long[2]);
            if (a[0] != b[0] || a[1] != b[1]) {
                if (out.size() == limit) {
                    out.add("...");
                    break;
                }
                out.add("window (" + w + "): " + mine + " " + a[0] + " tuples, " + theirs + " " + b[0]
                        + (a[0] == b[0] ? " (payloads or tuples differ)" : ""));
            }
        }
        return out;
    }

    /** The SplitMix64 finalizer: spreads a tuple's and a payload's hash codes over 64 bits. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
