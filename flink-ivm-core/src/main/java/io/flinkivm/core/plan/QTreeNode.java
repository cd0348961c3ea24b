package io.flinkivm.core.plan;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * A node of the q-tree above the border of a {@link QHierarchicalPlan}: a free variable, or the root
 * (no variable). The root schemas of a q-hierarchical query nest, so each is the path from the root to
 * its deepest variable; a root view sits at that node. The join keeps one entry per value of a node's
 * path that some live root tuple extends, with the payloads of the root views that sit there and, per
 * child, the list of the child's values that extend to a result.
 *
 * @param id index in {@link QHierarchicalPlan#qTree()}; 0 is the root, parents come before children
 * @param variable the free variable, or null for the root
 * @param parent the parent node, or -1 for the root
 * @param path the variables from the top down to this one (empty for the root): an entry's key
 * @param trees the view trees whose root views sit here (root schema = the path as a set), in index order
 * @param children the child nodes, in id order
 */
@Internal
public record QTreeNode(
        int id, String variable, int parent, List<String> path, List<Integer> trees, List<Integer> children)
        implements Serializable {
    public QTreeNode {
        path = List.copyOf(path);
        trees = List.copyOf(trees);
        children = List.copyOf(children);
    }
}
