package io.flinkivm.core.engine.join;

import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/**
 * The shape of an α-acyclic Boolean join that {@code LiveJoin} maintains: its nodes (the view
 * trees' root views in the acyclic plan, the bags of a tree decomposition in the cyclic plan), the
 * join tree over them, and how a node's tuple projects onto the keys it shares with its parent and
 * children.
 */
@Internal
public interface JoinLayout {
    /** Number of join-tree nodes, numbered 0..nodeCount()-1. */
    int nodeCount();

    /** The join-tree children of a node. */
    int[] joinChildren(int node);

    /** A node's index among its parent's join children (-1 for the root). */
    int childIndexInParent(int node);

    /** A node's parent, -1 for the root. */
    int joinParent(int node);

    /** A node's tuple projected onto its join key with the parent. */
    Tuple keyToParent(int node, Tuple tuple);

    /** A parent's tuple projected onto its join key with child {@code child}. */
    Tuple keyOfChild(int child, Tuple parentTuple);

    /**
     * The positions of a node's tuple that {@link #keyToParent} takes, in key order (none for the
     * root). The caller must not change the array.
     */
    int[] keyToParentPositions(int node);

    /**
     * The positions of the parent's tuple that {@link #keyOfChild} takes for {@code child}, in key
     * order. The caller must not change the array.
     */
    int[] keyOfChildPositions(int child);

    /** The nodes in pre-order, root first. */
    int[] order();

    /** For each position in {@link #order()}, the position of its parent (-1 for the root). */
    int[] orderParentPosition();

    /** Assembles a result tuple (head order) from one tuple per position of {@link #order()}. */
    Tuple assembleHead(Tuple[] byOrderPosition);

    /**
     * The node whose tuples are result tuples as they are (its schema is the head, in head order), so
     * that a result needs no assembly; -1 if there is none.
     */
    default int headNode() {
        return -1;
    }

    /**
     * Whether a node's key to its parent is its whole tuple, in order (the root's key is empty): each
     * key then has at most one tuple, so the key's live list is the tuple itself.
     */
    boolean keyIsTuple(int node);

    /** Number of view trees (root views right below the border). */
    int treeCount();

    /** A result tuple (head order) projected onto tree {@code tree}'s root schema. */
    Tuple rootKeyOfHead(int tree, Tuple head);
}
