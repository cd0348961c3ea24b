package io.flinkivm.examples.tables;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

/**
 * Rows of two engines made comparable: numbers as {@link BigDecimal}s without trailing zeros (Flink SQL
 * keeps {@code INT} for the {@code SUM} of an {@code INT} column where flink-ivm's is {@code BIGINT}, and
 * decimal scales differ), everything else as it is; the final result of a changelog as a multiset of such
 * rows; and an order-independent 64-bit checksum of a result.
 */
public final class NormalizedRows {
    private NormalizedRows() {}

    /** A value as compared: integers and decimals as plain BigDecimals without trailing zeros. */
    public static Object normalize(Object v) {
        if (v instanceof BigDecimal d) {
            return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        return v;
    }

    /** A row's values, normalized. */
    public static List<Object> normalize(Row row) {
        List<Object> values = new ArrayList<>(row.getArity());
        for (int i = 0; i < row.getArity(); i++) {
            values.add(normalize(row.getField(i)));
        }
        return values;
    }

    /** +1 for a row that adds to the result ({@code +I}, {@code +U}), -1 for one that takes away. */
    public static int sign(Row row) {
        RowKind kind = row.getKind();
        return kind == RowKind.INSERT || kind == RowKind.UPDATE_AFTER ? 1 : -1;
    }

    /**
     * The final result of a changelog with retractions (Flink SQL's, or an insert-only one): normalized
     * rows with their multiplicities.
     *
     * @throws IllegalStateException if a row is retracted more often than it was added
     */
    public static Map<List<Object>, Integer> result(Iterator<Row> changelog) {
        Map<List<Object>, Integer> counts = new HashMap<>();
        while (changelog.hasNext()) {
            Row r = changelog.next();
            counts.merge(normalize(r), sign(r), Integer::sum);
        }
        counts.forEach((row, n) -> {
            if (n < 0) {
                throw new IllegalStateException("row " + row + " retracted more often than added");
            }
        });
        counts.values().removeIf(n -> n == 0);
        return counts;
    }

    /**
     * A 64-bit hash of a row's normalized values; the sum of the hashes of a result's rows (each as often
     * as it occurs, wrapping around) is its checksum, the same whatever the order and the engine.
     */
    public static long hash(Row row) {
        long h = row.getArity();
        for (int i = 0; i < row.getArity(); i++) {
            Object v = normalize(row.getField(i));
            long x = v instanceof BigDecimal d
                    ? d.unscaledValue().hashCode() * 31L + d.scale()
                    : v == null ? 0x5bd1e995L : v.hashCode();
            h = mix(h * 0x9E3779B97F4A7C15L + x);
        }
        return h;
    }

    /** MurmurHash3's 64-bit finalizer. */
    private static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
