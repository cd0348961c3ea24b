package io.flinkivm.core.partition;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * A HyperCube layout: a share s_v per variable, and the cells of the grid ∏ [0, s_v). A tuple over a
 * schema goes to every cell whose coordinates agree with the hashes of its values on the schema's
 * variables; so a full join result, which agrees with all of its relations' tuples, is produced in
 * exactly one cell, and a relation's tuple is replicated to ∏_{v ∉ schema} s_v cells.
 *
 * @param variables the variables of the grid, in order (cell indexes are mixed-radix in this order)
 * @param shares each variable's share, at least 1
 */
@Internal
public record Shares(List<String> variables, int[] shares) implements Serializable {

    public Shares {
        variables = List.copyOf(variables);
        shares = shares.clone();
        if (variables.size() != shares.length) {
            throw new IllegalArgumentException(variables.size() + " variables but " + shares.length + " shares");
        }
        for (int s : shares) {
            if (s < 1) {
                throw new IllegalArgumentException("shares must be at least 1: " + Arrays.toString(shares));
            }
        }
    }

    /** The single cell: every tuple goes there (no parallelism). */
    public static Shares single(List<String> variables) {
        int[] ones = new int[variables.size()];
        Arrays.fill(ones, 1);
        return new Shares(variables, ones);
    }

    @Override
    public int[] shares() {
        return shares.clone();
    }

    /** The share of {@code variable} (1 for a variable not in the grid). */
    public int share(String variable) {
        int i = variables.indexOf(variable);
        return i < 0 ? 1 : shares[i];
    }

    /** Number of cells, ∏ s_v. */
    public int cells() {
        int n = 1;
        for (int s : shares) {
            n *= s;
        }
        return n;
    }

    /** Cells a tuple over {@code schema} is sent to: ∏ of the shares of the variables it lacks. */
    public int replication(List<String> schema) {
        int r = 1;
        for (int i = 0; i < shares.length; i++) {
            if (!schema.contains(variables.get(i))) {
                r *= shares[i];
            }
        }
        return r;
    }

    /**
     * The variable that holds all cells when every other share is 1 (then a tuple's cell is a
     * hash of that one value), or null.
     */
    public String soleVariable() {
        String sole = null;
        for (int i = 0; i < shares.length; i++) {
            if (shares[i] > 1) {
                if (sole != null) {
                    return null;
                }
                sole = variables.get(i);
            }
        }
        return sole;
    }

    /** The shares above 1, e.g. {@code A=2 C=2}; {@code none} for a single cell. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < shares.length; i++) {
            if (shares[i] > 1) {
                parts.add(variables.get(i) + "=" + shares[i]);
            }
        }
        return parts.isEmpty() ? "none" : String.join(" ", parts);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Shares s && s.variables.equals(variables) && Arrays.equals(s.shares, shares);
    }

    @Override
    public int hashCode() {
        return 31 * variables.hashCode() + Arrays.hashCode(shares);
    }

    @Override
    public String toString() {
        return "Shares[" + describe() + ", " + cells() + " cells]";
    }
}
