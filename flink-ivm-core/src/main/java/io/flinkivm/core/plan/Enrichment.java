package io.flinkivm.core.plan;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * An atom of the closure under the keys that gains variables through other atoms' keys: a row of
 * its relation is extended, in front of the view trees, by the values that its lookups find.
 *
 * @param atom the atom's index in the body
 * @param relation the relation of the atom in the closed query (the original one if no other atom
 *     names it, else a fresh name)
 * @param gained the variables the atom gains, in the order they are appended to its tuple
 * @param lookups the chain of lookups that finds them, in order; each step's key variables are the
 *     atom's own or added by an earlier step
 */
@Internal
public record Enrichment(int atom, String relation, List<String> gained, List<KeyLookup> lookups)
        implements Serializable {
    public Enrichment {
        gained = List.copyOf(gained);
        lookups = List.copyOf(lookups);
    }
}
