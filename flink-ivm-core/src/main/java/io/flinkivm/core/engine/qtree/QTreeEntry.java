package io.flinkivm.core.engine.qtree;

import io.flinkivm.core.query.Tuple;
import java.util.Arrays;
import org.apache.flink.annotation.Internal;

/**
 * What the q-tree join ({@link QTreeJoin}) keeps about one value of one q-tree node's path: the payloads
 * of the root views that sit at the node, its support (the root views present here and the entries
 * below it), per child node the list of the child's values that extend to a result (its head here, the
 * links in the children's entries), and its own links in its parent's list. With a changelog, also each
 * payload at the last trigger and the lists as they were then. Mutable; stores decide whether a
 * changed entry must be written back ({@link QTreeStore#update}).
 *
 * @param <T> the payload type
 */
@Internal
public final class QTreeEntry<T> {
    /** A payload slot unchanged since the last trigger (in {@link #then}). */
    static final Object CLEAN = new Object() {
        @Override
        public String toString() {
            return "CLEAN";
        }
    };

    /** Per root view sitting at the node: its payload, null for zero (absent). */
    final Object[] payloads;
    /** Root views present here (payload not zero). */
    int present;
    /** Entries of the child nodes below this one: with {@link #present}, the entry's support. */
    int childEntries;
    /** Per child node: the first child entry (its key) in the list of those that extend to a result. */
    final Tuple[] heads;
    /** Child lists that are not empty. */
    int liveChildren;
    /** In the parent's list for this node: whether listed, and the neighbours' keys. */
    boolean listed;

    Tuple prev;
    Tuple next;
    /** Changelog: per payload slot {@link #CLEAN}, or its payload at the last trigger; null when all are clean. */
    Object[] then;
    /** Changelog: the lists as at the last trigger (heads, own links, whether listed then). */
    final Tuple[] headsThen;

    boolean listedThen;
    Tuple prevThen;
    Tuple nextThen;
    /** Changelog: whether a payload changed since the last trigger (the entry is in the store's dirty list). */
    boolean dirty;

    /** An entry of a node with {@code slots} root views sitting at it and {@code children} child nodes. */
    public QTreeEntry(int slots, int children, boolean changelog) {
        payloads = new Object[slots];
        heads = new Tuple[children];
        headsThen = changelog ? new Tuple[children] : null;
    }

    /** Whether nothing keeps the entry: no root view present, no entry below. */
    boolean unsupported() {
        return present == 0 && childEntries == 0;
    }

    Tuple[] heads(boolean atTrigger) {
        return atTrigger ? headsThen : heads;
    }

    boolean listed(boolean atTrigger) {
        return atTrigger ? listedThen : listed;
    }

    Tuple prev(boolean atTrigger) {
        return atTrigger ? prevThen : prev;
    }

    Tuple next(boolean atTrigger) {
        return atTrigger ? nextThen : next;
    }

    void link(boolean atTrigger, boolean in, Tuple prev, Tuple next) {
        if (atTrigger) {
            listedThen = in;
            prevThen = prev;
            nextThen = next;
        } else {
            listed = in;
            this.prev = prev;
            this.next = next;
        }
    }

    void setPrev(boolean atTrigger, Tuple prev) {
        if (atTrigger) {
            prevThen = prev;
        } else {
            this.prev = prev;
        }
    }

    void setNext(boolean atTrigger, Tuple next) {
        if (atTrigger) {
            nextThen = next;
        } else {
            this.next = next;
        }
    }

    @Override
    public String toString() {
        return "QTreeEntry[payloads " + Arrays.toString(payloads) + ", support " + present + "+" + childEntries
                + (listed ? ", listed" : "") + (dirty ? ", changed" : "") + "]";
    }
}
