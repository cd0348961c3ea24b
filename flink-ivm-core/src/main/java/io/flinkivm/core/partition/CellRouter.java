package io.flinkivm.core.partition;

import io.flinkivm.core.query.Tuple;
import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * The cells of a {@link Shares} grid that a tuple over one schema goes to: its own variables fix
 * their coordinates (a hash of the value modulo the share), the grid's other variables range over
 * their shares. Cells are numbered mixed-radix in the grid's variable order. Immutable; the hashes
 * are deterministic across JVMs (they depend only on the values' specified hash codes).
 */
@Internal
public final class CellRouter implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int[] shares;
    /** Per grid variable: its position in the schema, or -1 if the schema lacks it. */
    private final int[] position;

    private final int[] stride;
    private final int replication;

    /** Routes tuples over {@code schema} on the grid {@code shares}. */
    public CellRouter(Shares shares, List<String> schema) {
        this.shares = shares.shares();
        int k = this.shares.length;
        position = new int[k];
        stride = new int[k];
        int r = 1;
        int s = 1;
        for (int v = k - 1; v >= 0; v--) {
            position[v] = schema.indexOf(shares.variables().get(v));
            stride[v] = s;
            s *= this.shares[v];
            if (position[v] < 0) {
                r *= this.shares[v];
            }
        }
        replication = r;
    }

    /** Number of cells each tuple goes to. */
    public int replication() {
        return replication;
    }

    /**
     * Writes the cells of {@code tuple} into {@code out} (at least {@link #replication()} long) and
     * returns how many there are.
     */
    public int cells(Tuple tuple, int[] out) {
        int fixed = 0;
        for (int v = 0; v < shares.length; v++) {
            if (position[v] >= 0 && shares[v] > 1) {
                fixed += coordinate(tuple.get(position[v]), v, shares[v]) * stride[v];
            }
        }
        out[0] = fixed;
        int n = 1;
        for (int v = 0; v < shares.length; v++) {
            if (position[v] < 0 && shares[v] > 1) {
                // Every cell so far, once per further coordinate of this variable.
                for (int c = 1; c < shares[v]; c++) {
                    for (int i = 0; i < n; i++) {
                        out[c * n + i] = out[i] + c * stride[v];
                    }
                }
                n *= shares[v];
            }
        }
        return n;
    }

    /**
     * The coordinate of {@code value} on grid variable {@code v} with {@code share} > 1: a hash of
     * the value mixed with the variable's index, so that equal values on two variables do not fall
     * on the diagonal of the grid.
     */
    static int coordinate(Object value, int v, int share) {
        int h = value.hashCode() ^ (0x9E3779B9 * (v + 1));
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return Math.floorMod(h, share);
    }
}
