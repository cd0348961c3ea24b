package io.flinkivm.core.engine.join;

import java.util.Arrays;
import org.apache.flink.annotation.Internal;

/**
 * How {@code LiveJoin} visits the join tree: steps in order, each a node whose candidate tuples come
 * from an earlier step's tuple (its source): the root's live tuples, a fixed anchor tuple, a child's
 * live tuples with the source's key (down), or the in-join parents with the source's key (up).
 */
@Internal
public final class Walk {
    /** The step's one candidate is the anchor tuple. */
    public static final byte FIXED = 0;
    /** The step's candidates are the root's live tuples. */
    public static final byte ROOTS = 1;
    /** The step's candidates are its node's live tuples with its source's key. */
    public static final byte DOWN = 2;
    /** The step's candidates are its node's in-join tuples with its source's key. */
    public static final byte UP = 3;

    public final int[] node;
    public final int[] source;
    public final byte[] how;
    /** For each step, its node's position in the layout's order (to assemble head tuples). */
    public final int[] orderPosition;
    /** The step whose tuple is the result tuple as it is ({@link JoinLayout#headNode}), or -1. */
    public int headStep = -1;
    /**
     * For each step of a full walk whose one candidate follows from the root tuple (down from the
     * root, or from such a step, to a child whose key is its whole tuple): its slot in the root
     * scan ({@link RecordScan#remember}); -1 for the other steps.
     */
    public final int[] slot;
    /** Number of slots. */
    public int slots;

    private Walk(int steps) {
        node = new int[steps];
        source = new int[steps];
        how = new byte[steps];
        orderPosition = new int[steps];
        slot = new int[steps];
        Arrays.fill(slot, -1);
    }

    /** Whether every step after the root's has a slot: each live root tuple is exactly one result. */
    public boolean isFlat() {
        return how[0] == ROOTS && slots == node.length - 1;
    }

    private Walk withHeadStep(JoinLayout layout) {
        for (int s = 0; s < node.length; s++) {
            if (node[s] == layout.headNode()) {
                headStep = s;
            }
        }
        return this;
    }

    /** A walk from the root's live tuples down the tree, in the layout's order. */
    public static Walk full(JoinLayout layout) {
        int[] order = layout.order();
        int[] parentPos = layout.orderParentPosition();
        Walk w = new Walk(order.length);
        for (int p = 0; p < order.length; p++) {
            w.node[p] = order[p];
            w.source[p] = parentPos[p];
            w.how[p] = p == 0 ? ROOTS : DOWN;
            w.orderPosition[p] = p;
            boolean fromRoot = p > 0 && (parentPos[p] == 0 || w.slot[parentPos[p]] >= 0);
            if (fromRoot && layout.keyIsTuple(order[p])) {
                w.slot[p] = w.slots++;
            }
        }
        return w.withHeadStep(layout);
    }

    /** A walk from {@code anchor} over the whole tree: breadth-first, children down, the parent up. */
    public static Walk anchored(JoinLayout layout, int anchor) {
        int n = layout.nodeCount();
        Walk w = new Walk(n);
        int[] positionInOrder = new int[n];
        int[] order = layout.order();
        for (int p = 0; p < order.length; p++) {
            positionInOrder[order[p]] = p;
        }
        boolean[] seen = new boolean[n];
        w.node[0] = anchor;
        w.source[0] = -1;
        w.how[0] = FIXED;
        seen[anchor] = true;
        int size = 1;
        for (int s = 0; s < size; s++) {
            int at = w.node[s];
            for (int child : layout.joinChildren(at)) {
                if (!seen[child]) {
                    seen[child] = true;
                    w.node[size] = child;
                    w.source[size] = s;
                    w.how[size] = DOWN;
                    size++;
                }
            }
            int parent = layout.joinParent(at);
            if (parent >= 0 && !seen[parent]) {
                seen[parent] = true;
                w.node[size] = parent;
                w.source[size] = s;
                w.how[size] = UP;
                size++;
            }
        }
        for (int s = 0; s < n; s++) {
            w.orderPosition[s] = positionInOrder[w.node[s]];
        }
        return w.withHeadStep(layout);
    }
}
