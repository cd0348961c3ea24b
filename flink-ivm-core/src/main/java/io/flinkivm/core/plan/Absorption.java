package io.flinkivm.core.plan;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * A key table folded into an atom that looks it up by its key: atom {@code atom} (S), whose key's
 * columns hold the variables {@code key}, all of which atom {@code into} (R) holds, is replaced by
 * R' = R ⋈ S. On databases where S's key holds each row of R joins at most one row of S, so R' has
 * R's rows extended by S's values, and S's payload is multiplied in exactly once: by the rows of
 * {@code taker}, the atom of the absorbed query that R (or, when R is folded in turn, what R is
 * folded into) became.
 *
 * @param atom the absorbed atom (its index in the query's body)
 * @param relation its relation, whose key stage keeps its rows
 * @param key the variables at its key's columns, in column order
 * @param into the atom it is folded into (its index in the body)
 * @param taker the atom of the absorbed query whose rows take its payload (an index in the query's
 *     body; {@code into} itself unless that is folded too)
 */
@Internal
public record Absorption(int atom, String relation, List<String> key, int into, int taker) implements Serializable {
    public Absorption {
        key = List.copyOf(key);
    }
}
