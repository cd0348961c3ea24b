package io.flinkivm.core.engine.keys;

import io.flinkivm.core.query.AtomMatcher;
import io.flinkivm.core.query.Tuple;
import java.io.Serializable;

/**
 * One lookup step of a row through a key stage, compiled to positions: the row is laid out as its
 * relation tuple (or the head tuple) followed by the values that earlier steps added, and the step
 * appends the looked-up key row's columns it adds.
 */
final class LookupStep implements Serializable {
    private static final long serialVersionUID = 1L;
    /** The stage looked up, or -1 (a head's lookup of a trusted key). */
    final int stage;
    /** The looked-up relation's index. */
    final int relation;
    /** Positions in the row of the key's values, in column order. */
    final int[] key;

    final AtomMatcher lookedUp;
    /** Pairs (position in the row, column of the key row) of variables the row already has. */
    final int[] shared;
    /** Columns of the key row appended to the row. */
    final int[] append;
    /** Whether the key row's payload multiplies the row's (the step absorbs the looked-up atom). */
    final boolean payload;

    LookupStep(int stage, int relation, int[] key, AtomMatcher lookedUp, int[] shared, int[] append, boolean payload) {
        this.stage = stage;
        this.relation = relation;
        this.key = key;
        this.lookedUp = lookedUp;
        this.shared = shared;
        this.append = append;
        this.payload = payload;
    }

    /** {@code values} followed by this step's columns of {@code keyRow}; null if the key row cannot join them. */
    Tuple extend(Tuple values, Tuple keyRow) {
        if (lookedUp.match(keyRow) == null) {
            return null;
        }
        for (int i = 0; i < shared.length; i += 2) {
            if (!values.get(shared[i]).equals(keyRow.get(shared[i + 1]))) {
                return null;
            }
        }
        if (append.length == 0) {
            return values;
        }
        Object[] out = new Object[values.arity() + append.length];
        for (int i = 0; i < values.arity(); i++) {
            out[i] = values.get(i);
        }
        for (int i = 0; i < append.length; i++) {
            out[values.arity() + i] = keyRow.get(append[i]);
        }
        return Tuple.wrap(out);
    }
}
