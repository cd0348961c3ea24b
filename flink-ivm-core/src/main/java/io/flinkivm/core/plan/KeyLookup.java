package io.flinkivm.core.plan;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * One step of a chase through a key: the row of atom {@code atom}'s relation stored under the key
 * values {@code key} gives the values of {@code added} (variables of that atom).
 *
 * @param atom the atom whose key is looked up (its index in the query's body)
 * @param relation that atom's relation, whose key stage holds the rows
 * @param key the variables at the key's columns, in column order
 * @param added the variables the step adds, in the atom's order
 */
@Internal
public record KeyLookup(int atom, String relation, List<String> key, List<String> added) implements Serializable {
    public KeyLookup {
        key = List.copyOf(key);
        added = List.copyOf(added);
    }

    /** E.g. {@code orders(ok) → ck}: the key as the looked-up atom's variables, and what it adds. */
    @Override
    public String toString() {
        return relation + "(" + String.join(",", key) + ") → " + String.join(",", added);
    }
}
