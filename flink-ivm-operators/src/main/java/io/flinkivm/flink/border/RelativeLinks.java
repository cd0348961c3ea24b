package io.flinkivm.flink.border;

import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.query.Tuple;

/**
 * The stored form of a join record's links: without the values they share with the record's own
 * tuple. Every tuple of a list has the list's key: the next tuple of a live list has the record's key
 * to its parent, the next tuple of a waiting or in-join list for child {@code c} has the record's key
 * with that child. A link is stored as its values outside that key (for TPC-H's {@code (order,
 * customer)} records waiting for their customer: the next order only), and the key's values come from
 * the record's tuple, the state's key, when it is read. Records of ids outside the layout's nodes, and
 * records without links, are stored as they are. Neither method changes the record it is given (a
 * heap backend keeps the stored object itself).
 */
final class RelativeLinks {
    /** Per node: the positions of its key to the parent. */
    private final int[][] parentKey;
    /** Per node, per join child: the positions of the node's key with that child. */
    private final int[][][] childKey;
    /** Per node: the positions of its parent's key with it. */
    private final int[][] keyInParent;

    RelativeLinks(JoinLayout layout) {
        int n = layout.nodeCount();
        parentKey = new int[n][];
        childKey = new int[n][][];
        keyInParent = new int[n][];
        for (int node = 0; node < n; node++) {
            parentKey[node] = layout.keyToParentPositions(node);
            keyInParent[node] = layout.keyOfChildPositions(node);
            int[] kids = layout.joinChildren(node);
            childKey[node] = new int[kids.length][];
            for (int c = 0; c < kids.length; c++) {
                childKey[node][c] = layout.keyOfChildPositions(kids[c]);
            }
        }
    }

    /** The record to store for {@code record} of {@code node}: a copy with its links' stored form, or itself. */
    <T> JoinRecord<T> stored(int node, JoinRecord<T> record) {
        return relinked(node, null, record);
    }

    /** The record read for {@code own} of {@code node}: a copy with whole links, or itself. */
    <T> JoinRecord<T> whole(int node, Tuple own, JoinRecord<T> stored) {
        return relinked(node, own, stored);
    }

    /** {@code r} with every link {@link #converted}: to its stored form if {@code own} is null, else whole. */
    private <T> JoinRecord<T> relinked(int node, Tuple own, JoinRecord<T> r) {
        if (node >= parentKey.length || !r.hasLinks()) {
            return r;
        }
        int[][] keys = childKey[node];
        Tuple live = r.liveNext == null ? null : converted(own, r.liveNext, parentKey[node]);
        return r.withLinks(live, convertedAll(own, r.waitNext, keys), convertedAll(own, r.upNext, keys));
    }

    private static Tuple[] convertedAll(Tuple own, Tuple[] links, int[][] keys) {
        if (links.length == 0) {
            return links;
        }
        Tuple[] out = new Tuple[links.length];
        for (int c = 0; c < links.length; c++) {
            out[c] = links[c] == null ? null : converted(own, links[c], keys[c]);
        }
        return out;
    }

    /** {@code link} without the values at {@code key} if {@code own} is null, else whole from {@code own}'s. */
    private static Tuple converted(Tuple own, Tuple link, int[] key) {
        return own == null ? drop(link, key) : add(own, link, key);
    }

    /** Where a live list's key is in the tuples of {@code node}, its members. */
    int[] liveKey(int node) {
        return parentKey[node];
    }

    /** Where the key of {@code node}'s list waiting for its {@code child}-th join child is in its members. */
    int[] waitKey(int node, int child) {
        return childKey[node][child];
    }

    /** Where the key of {@code child}'s in-join list is in its members, tuples of the parent. */
    int[] upKey(int child) {
        return keyInParent[child];
    }

    /** The whole first tuple of a list from its stored form and the list's key (values in key order). */
    static Tuple headWhole(Tuple key, Tuple rest, int[] keyPositions) {
        return assemble(rest, keyPositions, key, true);
    }

    /** {@code link}'s values outside the positions {@code key}, in order: a link's or a list head's stored form. */
    static Tuple drop(Tuple link, int[] key) {
        if (key.length == 0) {
            return link;
        }
        Object[] rest = new Object[link.arity() - key.length];
        int j = 0;
        for (int i = 0; i < link.arity(); i++) {
            if (!contains(key, i)) {
                rest[j++] = link.get(i);
            }
        }
        return Tuple.wrap(rest);
    }

    /** The whole tuple: {@code own}'s values at the positions {@code key}, {@code rest}'s elsewhere, in order. */
    static Tuple add(Tuple own, Tuple rest, int[] key) {
        if (key.length > 0 && rest.arity() + key.length != own.arity()) {
            throw new IllegalStateException("a stored link of " + rest.arity() + " values does not complete a tuple of "
                    + own.arity() + " values with a key of " + key.length);
        }
        return assemble(rest, key, own, false);
    }

    /**
     * The whole tuple: at each position {@code positions[k]} the key's k-th value, which is {@code
     * from.get(k)} if {@code from} is the key and {@code from.get(positions[k])} if it is a tuple with the
     * same key; {@code rest}'s values elsewhere, in order.
     */
    private static Tuple assemble(Tuple rest, int[] positions, Tuple from, boolean fromIsKey) {
        if (positions.length == 0) {
            return rest;
        }
        Object[] whole = new Object[rest.arity() + positions.length];
        for (int k = 0; k < positions.length; k++) {
            whole[positions[k]] = from.get(fromIsKey ? k : positions[k]);
        }
        int j = 0;
        for (int i = 0; i < whole.length; i++) {
            if (whole[i] == null) { // tuple values are never null: the slot is not the key's
                whole[i] = rest.get(j++);
            }
        }
        return Tuple.wrap(whole);
    }

    private static boolean contains(int[] positions, int i) {
        for (int p : positions) {
            if (p == i) {
                return true;
            }
        }
        return false;
    }
}
