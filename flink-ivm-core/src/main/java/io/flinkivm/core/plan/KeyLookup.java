package io.flinkivm.core.plan;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * One step of a chase through a key: the row of atom {@code atom}'s relation stored under the key
 * values {@code key} gives the values of {@code added} (variables of that atom), and, where that atom
 * is absorbed into the row that looks it up ({@link Absorption}), its payload.
 *
 * @param atom the atom whose key is looked up (its index in the query's body)
 * @param relation that atom's relation, whose key stage holds the rows
 * @param key the variables at the key's columns, in column order
 * @param added the variables the step adds, in the atom's order (none for an absorbed atom whose
 *     variables the row has already)
 * @param payload whether the looked-up row's payload multiplies the row's: the step folds an absorbed
 *     atom into its payload taker
 * @param copy which copy of the relation's key stage the step looks up ({@link KeyStage}): 0, or c for
 *     the c-th time after the first that one row's lookups meet that relation
 */
@Internal
public record KeyLookup(int atom, String relation, List<String> key, List<String> added, boolean payload, int copy)
        implements Serializable {
    public KeyLookup {
        key = List.copyOf(key);
        added = List.copyOf(added);
        if (copy < 0) {
            throw new IllegalArgumentException("a stage's copy counts from 0, got " + copy);
        }
    }

    /** A step through the relation's first stage. */
    public KeyLookup(int atom, String relation, List<String> key, List<String> added, boolean payload) {
        this(atom, relation, key, added, payload, 0);
    }

    /** A step through the relation's first stage that adds variables only (the closures' lookups). */
    public KeyLookup(int atom, String relation, List<String> key, List<String> added) {
        this(atom, relation, key, added, false, 0);
    }

    /** This step through copy {@code c} of its relation's stage. */
    public KeyLookup withCopy(int c) {
        return c == copy ? this : new KeyLookup(atom, relation, key, added, payload, c);
    }

    /**
     * E.g. {@code orders(ok) → ck}: the key as the looked-up atom's variables, and what it adds; an
     * absorbing step says so, e.g. {@code orders(ok) → ck and its payload}.
     */
    @Override
    public String toString() {
        String lookedUp = relation + "(" + String.join(",", key) + ") → ";
        if (!payload) {
            return lookedUp + String.join(",", added);
        }
        return lookedUp + (added.isEmpty() ? "its payload" : String.join(",", added) + " and its payload");
    }
}
