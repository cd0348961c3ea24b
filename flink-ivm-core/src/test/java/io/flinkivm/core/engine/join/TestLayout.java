package io.flinkivm.core.engine.join;

import io.flinkivm.core.query.Tuple;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * A hand-made join layout for the join's tests. A node's tuple is (x, y), or (x) for a node whose key
 * is its whole tuple; a node joins its parent on x and its children on its last value. The head is
 * every node's tuple, in pre-order, concatenated.
 */
public final class TestLayout implements JoinLayout {
    private final int[] parent;
    private final boolean[] whole;
    private final int headNode;
    private final int[] order;

    private TestLayout(int[] parent, boolean[] whole, int headNode) {
        this.parent = parent;
        this.whole = whole;
        this.headNode = headNode;
        order = new int[parent.length];
        int size = 0;
        int[] stack = new int[parent.length];
        int top = 0;
        for (int n = 0; n < parent.length; n++) {
            if (parent[n] < 0) {
                stack[top++] = n;
            }
        }
        while (top > 0) {
            int n = stack[--top];
            order[size++] = n;
            int[] kids = joinChildren(n);
            for (int c = kids.length - 1; c >= 0; c--) {
                stack[top++] = kids[c];
            }
        }
    }

    /** Nodes by their parent (-1 for the root), with the nodes keyed by their whole tuple and the head node (or -1). */
    public static TestLayout of(int[] parent, boolean[] whole, int headNode) {
        return new TestLayout(parent, whole, headNode);
    }

    /** A chain of {@code depth} nodes of pairs, node 0 the root. */
    public static TestLayout chain(int depth) {
        int[] parent = new int[depth];
        Arrays.setAll(parent, n -> n - 1);
        return of(parent, new boolean[depth], -1);
    }

    /** A root of pairs with {@code leaves} children 1..leaves, each keyed by its whole tuple: the root's y. */
    public static TestLayout star(int leaves, int headNode) {
        int[] parent = new int[leaves + 1];
        boolean[] whole = new boolean[leaves + 1];
        parent[0] = -1;
        for (int n = 1; n <= leaves; n++) {
            whole[n] = true;
        }
        return of(parent, whole, headNode);
    }

    @Override
    public int nodeCount() {
        return parent.length;
    }

    @Override
    public int[] joinChildren(int node) {
        return IntStream.range(0, parent.length).filter(c -> parent[c] == node).toArray();
    }

    @Override
    public int childIndexInParent(int node) {
        return parent[node] < 0 ? -1 : Arrays.binarySearch(joinChildren(parent[node]), node);
    }

    @Override
    public int joinParent(int node) {
        return parent[node];
    }

    @Override
    public Tuple keyToParent(int node, Tuple tuple) {
        return parent[node] < 0 ? Tuple.EMPTY : Tuple.of(tuple.get(0));
    }

    @Override
    public Tuple keyOfChild(int child, Tuple parentTuple) {
        return Tuple.of(parentTuple.get(parentTuple.arity() - 1));
    }

    @Override
    public int[] keyToParentPositions(int node) {
        return parent[node] < 0 ? new int[0] : new int[] {0};
    }

    @Override
    public int[] keyOfChildPositions(int child) {
        return new int[] {arity(parent[child]) - 1};
    }

    @Override
    public int[] order() {
        return order.clone();
    }

    @Override
    public int[] orderParentPosition() {
        int[] positions = new int[order.length];
        for (int p = 0; p < order.length; p++) {
            int up = parent[order[p]];
            positions[p] = up < 0 ? -1 : positionOf(up);
        }
        return positions;
    }

    @Override
    public Tuple assembleHead(Tuple[] byOrderPosition) {
        return Tuple.wrap(Arrays.stream(byOrderPosition)
                .flatMap(t -> Arrays.stream(t.toArray()))
                .toArray());
    }

    @Override
    public int headNode() {
        return headNode;
    }

    @Override
    public boolean keyIsTuple(int node) {
        return whole[node];
    }

    @Override
    public int treeCount() {
        return parent.length;
    }

    @Override
    public Tuple rootKeyOfHead(int tree, Tuple head) {
        int from = 0;
        for (int p = 0; p < positionOf(tree); p++) {
            from += arity(order[p]);
        }
        return Tuple.wrap(Arrays.copyOfRange(head.toArray(), from, from + arity(tree)));
    }

    private int arity(int node) {
        return whole[node] ? 1 : 2;
    }

    private int positionOf(int node) {
        for (int p = 0; p < order.length; p++) {
            if (order[p] == node) {
                return p;
            }
        }
        throw new IllegalArgumentException("no node " + node);
    }
}
