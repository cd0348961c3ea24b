package io.flinkivm.core.testing;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Compares an enumerated query result with the expected one and describes every difference. */
public final class ResultDiff {

    private ResultDiff() {}

    /**
     * The differences between {@code expected} and the enumerated {@code actual} tuples: duplicates,
     * zero payloads, missing, extra and different tuples, one per line; empty if there are none.
     */
    public static <T> String compare(Semiring<T> k, Map<Tuple, T> expected, List<Map.Entry<Tuple, T>> actual) {
        List<String> lines = new ArrayList<>();
        Map<Tuple, T> seen = new HashMap<>();
        for (Map.Entry<Tuple, T> e : actual) {
            if (seen.containsKey(e.getKey())) {
                lines.add("duplicate " + e.getKey() + ": " + seen.get(e.getKey()) + " and " + e.getValue());
            }
            seen.put(e.getKey(), e.getValue());
            if (k.isZero(e.getValue())) {
                lines.add("zero payload " + e.getKey() + ": " + e.getValue());
            }
        }
        for (Map.Entry<Tuple, T> e : new TreeMap<>(expected).entrySet()) {
            T got = seen.get(e.getKey());
            if (got == null) {
                lines.add("missing " + e.getKey() + ": expected " + e.getValue());
            } else if (!got.equals(e.getValue())) {
                lines.add("different " + e.getKey() + ": expected " + e.getValue() + ", got " + got);
            }
        }
        for (Map.Entry<Tuple, T> e : new TreeMap<>(seen).entrySet()) {
            if (!expected.containsKey(e.getKey()) && !k.isZero(e.getValue())) {
                lines.add("extra " + e.getKey() + ": got " + e.getValue());
            }
        }
        return String.join("\n", lines);
    }

    /** The result sorted by tuple, one {@code tuple -> payload} per line. */
    public static <T> String format(Map<Tuple, T> result) {
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(result)
                .forEach((t, p) ->
                        sb.append("  ").append(t).append(" -> ").append(p).append('\n'));
        return sb.length() == 0 ? "  (empty)\n" : sb.toString();
    }
}
