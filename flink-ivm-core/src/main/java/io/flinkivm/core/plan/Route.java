package io.flinkivm.core.plan;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * Where a delta goes once stateless projections are skipped: into child slot {@code slot} of the
 * stateful node {@code node}, or, when {@code node} is -1, into the root view of tree {@code tree}.
 *
 * @param tree the view tree
 * @param node id of the receiving stateful node, or -1 for the tree's root view
 * @param slot the child slot at that node (0 for a root view)
 * @param key the receiving view's schema; a delta's tuple is projected onto it
 */
@Internal
public record Route(int tree, int node, int slot, List<String> key) implements Serializable {
    public Route {
        key = List.copyOf(key);
    }

    /** Whether the delta goes straight into a root view. */
    public boolean toRoot() {
        return node < 0;
    }
}
