package io.flinkivm.core.plan;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * One step of a first-order delta join: look up the atom's tuples that agree with the variables
 * bound so far on {@code lookupKey} (an index over those variables), and extend the binding.
 *
 * @param atom the atom joined in this step
 * @param lookupKey the atom's variables already bound (may be empty: a scan)
 */
@Internal
public record DeltaJoinStep(int atom, List<String> lookupKey) implements Serializable {
    public DeltaJoinStep {
        lookupKey = List.copyOf(lookupKey);
    }
}
