package io.flinkivm.core.engine.join;

import io.flinkivm.core.plan.ViewTree;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * A {@link JoinLayout} compiled to array positions from its nodes' schemas, parents and keys: the
 * part that the join over root views ({@code viewtree.CompiledPlan}) and {@code CompiledBagJoin} (a
 * join tree over bags) share, with the projection of a result onto each tree's root schema.
 */
@Internal
public abstract class CompiledJoinTree implements JoinLayout {

    /**
     * One join-tree node.
     *
     * @param schema the node's variables, in the order of its tuples
     * @param parent the parent node, -1 for the root
     * @param key the variables shared with the parent, in the order of the key tuples
     * @param name how error messages name the node
     */
    public record Node(List<String> schema, int parent, List<String> key, String name) {}

    private final ViewTreePlan plan;
    private final int[][] rootKeyInHead;
    private final int[] parent;
    private final int[][] children;
    private final int[] childIndexInParent;
    private final int[][] keyInOwn;
    private final int[][] keyInParent;
    private final boolean[] keyIsTuple;
    private final int[] order;
    private final int[] orderParentPosition;
    private final int[] headNode;
    private final int[] headPosition;
    /** The node whose schema is the head, or -1. */
    private final int wholeHeadNode;

    /**
     * @param nodes the join tree's nodes by number (none for a plan without a join tree here)
     * @param order the nodes in pre-order, root first
     * @param kind what a node is, for messages ("root view", "bag")
     */
    protected CompiledJoinTree(ViewTreePlan plan, List<Node> nodes, int[] order, String kind) {
        this.plan = plan;
        List<String> head = plan.query().head();
        List<ViewTree> trees = plan.viewTrees();
        rootKeyInHead = new int[trees.size()][];
        for (ViewTree t : trees) {
            rootKeyInHead[t.index()] = positions(head, t.schema(), t.displayName());
        }
        int n = nodes.size();
        parent = new int[n];
        children = new int[n][];
        childIndexInParent = new int[n];
        keyInOwn = new int[n][];
        keyInParent = new int[n][];
        keyIsTuple = new boolean[n];
        List<List<Integer>> kids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            kids.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            Node node = nodes.get(i);
            parent[i] = node.parent();
            keyInOwn[i] = positions(node.schema(), node.key(), node.name());
            keyIsTuple[i] = keyInOwn[i].length == node.schema().size();
            for (int k = 0; k < keyInOwn[i].length && keyIsTuple[i]; k++) {
                keyIsTuple[i] = keyInOwn[i][k] == k;
            }
            if (node.parent() >= 0) {
                keyInParent[i] = positions(nodes.get(node.parent()).schema(), node.key(), node.name());
                childIndexInParent[i] = kids.get(node.parent()).size();
                kids.get(node.parent()).add(i);
            } else {
                keyInParent[i] = new int[0];
                childIndexInParent[i] = -1;
            }
        }
        for (int i = 0; i < n; i++) {
            children[i] = kids.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        this.order = order.clone();
        orderParentPosition = new int[order.length];
        for (int p = 0; p < order.length; p++) {
            int up = parent[order[p]];
            orderParentPosition[p] = up < 0 ? -1 : indexOf(order, up);
        }
        int whole = -1;
        for (int i = 0; i < n && whole < 0; i++) {
            if (nodes.get(i).schema().equals(head)) {
                whole = i;
            }
        }
        wholeHeadNode = whole;
        int heads = n == 0 ? 0 : head.size();
        headNode = new int[heads];
        headPosition = new int[heads];
        for (int h = 0; h < heads; h++) {
            headNode[h] = -1;
            for (int p = 0; p < order.length && headNode[h] < 0; p++) {
                int pos = nodes.get(order[p]).schema().indexOf(head.get(h));
                if (pos >= 0) {
                    headNode[h] = p;
                    headPosition[h] = pos;
                }
            }
            if (headNode[h] < 0) {
                throw new IllegalStateException("free variable " + head.get(h) + " is in no " + kind + " of " + plan);
            }
        }
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        throw new IllegalStateException("join order misses node " + v);
    }

    /** Positions in {@code from} of the variables {@code to}, in order. */
    public static int[] positions(List<String> from, List<String> to, String where) {
        int[] out = new int[to.size()];
        for (int i = 0; i < to.size(); i++) {
            out[i] = from.indexOf(to.get(i));
            if (out[i] < 0) {
                throw new IllegalStateException(
                        "variable " + to.get(i) + " of " + to + " missing from " + from + " at " + where);
            }
        }
        return out;
    }

    public ViewTreePlan plan() {
        return plan;
    }

    /** Number of view trees (root views right below the border). */
    @Override
    public boolean keyIsTuple(int node) {
        return keyIsTuple[node];
    }

    @Override
    public int treeCount() {
        return rootKeyInHead.length;
    }

    /** A result tuple (head order) projected onto tree {@code tree}'s root schema. */
    @Override
    public Tuple rootKeyOfHead(int tree, Tuple head) {
        return head.project(rootKeyInHead[tree]);
    }

    @Override
    public int nodeCount() {
        return parent.length;
    }

    @Override
    public int[] joinChildren(int node) {
        return children[node];
    }

    @Override
    public int childIndexInParent(int node) {
        return childIndexInParent[node];
    }

    @Override
    public int joinParent(int node) {
        return parent[node];
    }

    @Override
    public Tuple keyToParent(int node, Tuple tuple) {
        return tuple.project(keyInOwn[node]);
    }

    @Override
    public Tuple keyOfChild(int child, Tuple parentTuple) {
        return parentTuple.project(keyInParent[child]);
    }

    @Override
    public int[] keyToParentPositions(int node) {
        return keyInOwn[node];
    }

    @Override
    public int[] keyOfChildPositions(int child) {
        return keyInParent[child];
    }

    @Override
    public int[] order() {
        return order;
    }

    @Override
    public int[] orderParentPosition() {
        return orderParentPosition;
    }

    @Override
    public int headNode() {
        return wholeHeadNode;
    }

    @Override
    public Tuple assembleHead(Tuple[] byOrderPosition) {
        Object[] values = new Object[headNode.length];
        for (int h = 0; h < values.length; h++) {
            values[h] = byOrderPosition[headNode[h]].get(headPosition[h]);
        }
        return Tuple.wrap(values);
    }
}
