package io.flinkivm.core.plan;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * A node of the Boolean join tree above the border: the indicator projection of one view tree's
 * root view.
 *
 * @param tree the view tree whose root view this node joins
 * @param parent the parent's tree index, or -1 for the root of the join tree
 * @param key the variables shared with the parent (head order); empty for the root and for a
 *     disconnected part (a cross product)
 */
@Internal
public record JoinTreeNode(int tree, int parent, List<String> key) implements Serializable {
    public JoinTreeNode {
        key = List.copyOf(key);
    }
}
