package io.flinkivm.core.engine.join;

import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/**
 * What the join above the border keeps about one tuple of one node: the root view's payload (the
 * acyclic plan's nodes are the root views; a bag tuple of the cyclic plan has none), its place in the
 * join ({@code LiveJoin}: children without a live match, the next tuples in its key's live list and
 * in the waiting lists), and, when a changelog is kept, its place in the index of tuples that are in
 * the full join and whether it changed since the last trigger. One record per tuple means one state
 * access per visit: an insert reads and writes it once, enumeration reads the payload where it finds
 * the tuple. Mutable; stores decide whether a changed record must be written back
 * ({@link JoinRecordStore#update}).
 *
 * @param <T> the payload type
 */
@Internal
public final class JoinRecord<T> {
    /** Unchanged since the last trigger. */
    public static final byte CLEAN = 0;
    /** Its payload changed since the last trigger; {@link #oldPayload} is the payload then. */
    public static final byte CHANGED = 1;
    /** New since the last trigger (it was absent, its payload zero). */
    public static final byte NEW = 2;

    private static final Tuple[] NONE = new Tuple[0];

    /** The root view's payload, boxed; null for a tuple without one (a bag tuple) or when {@link #unboxed}. */
    private T payload;
    /** The payload as the long it boxes, when {@link #unboxed} (see {@link #setUnboxedPayload}). */
    private long unboxedPayload;

    private boolean unboxed;
    /** Join children without a live match; 0 once the tuple is live. */
    public int missing;
    /** The next live tuple with the same key to the parent, or null. */
    public Tuple liveNext;
    /** Per join child: the next tuple waiting for the same key of that child, or null. */
    public Tuple[] waitNext;
    /** Changelog index: whether the tuple is in the full join (live, and joined all the way to the root). */
    public boolean inJoin;
    /** Changelog index, per join child: the next in-join tuple with the same key of that child, or null. */
    public Tuple[] upNext;
    /** Changelog: {@link #CLEAN}, {@link #CHANGED} or {@link #NEW}. */
    public byte dirty;
    /** Changelog: the payload at the last trigger when {@link #dirty} is {@link #CHANGED}. */
    public T oldPayload;

    /** A record with no payload and no place in the join yet. */
    public JoinRecord() {
        waitNext = NONE;
        upNext = NONE;
    }

    /** A record holding {@code payload} and no place in the join yet. */
    public JoinRecord(T payload) {
        this();
        this.payload = payload;
    }

    /** The root view's payload (boxed if the record keeps it unboxed), or null for a tuple without one. */
    @SuppressWarnings("unchecked") // unboxed only for semirings whose payloads are Longs
    public T payload() {
        return unboxed ? (T) Long.valueOf(unboxedPayload) : payload;
    }

    public void setPayload(T payload) {
        this.payload = payload;
        this.unboxed = false;
    }

    /**
     * Whether the payload is kept as a primitive long ({@link #unboxedPayload()}): only for a semiring
     * whose payloads are {@link Long}s ({@code Semiring.unboxedPlus}). A record in long-lived state
     * then takes no new payload object per update.
     */
    public boolean isUnboxed() {
        return unboxed;
    }

    /** The payload as a long: the unboxed one, or the boxed {@link Long} unboxed. */
    public long unboxedPayload() {
        return unboxed ? unboxedPayload : (Long) payload;
    }

    /** Sets the payload of a record whose semiring's payloads are {@link Long}s, kept unboxed. */
    public void setUnboxedPayload(long value) {
        this.unboxedPayload = value;
        this.unboxed = true;
        this.payload = null;
    }

    /** Sizes the per-child links for a node with {@code children} join children (all null). */
    public void shape(int children, boolean changelog) {
        waitNext = children == 0 ? NONE : new Tuple[children];
        upNext = changelog && children > 0 ? new Tuple[children] : NONE;
    }

    /** Drops the waiting links of a tuple that became live (they are all null then). */
    public void clearWaiting() {
        waitNext = NONE;
    }

    /** Whether the tuple is live: every join child has a live match. */
    public boolean isLive() {
        return missing == 0;
    }

    /**
     * A copy of this record with the links given and everything else shared (payloads, counts,
     * marks): for a store that keeps links in another form than the join logic reads.
     */
    public JoinRecord<T> withLinks(Tuple liveNext, Tuple[] waitNext, Tuple[] upNext) {
        JoinRecord<T> c = new JoinRecord<>();
        c.payload = payload;
        c.unboxedPayload = unboxedPayload;
        c.unboxed = unboxed;
        c.missing = missing;
        c.liveNext = liveNext;
        c.waitNext = waitNext;
        c.inJoin = inJoin;
        c.upNext = upNext;
        c.dirty = dirty;
        c.oldPayload = oldPayload;
        return c;
    }

    /** Whether the record links to another tuple (in a live, waiting or in-join list). */
    public boolean hasLinks() {
        if (liveNext != null) {
            return true;
        }
        for (Tuple t : waitNext) {
            if (t != null) {
                return true;
            }
        }
        for (Tuple t : upNext) {
            if (t != null) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "JoinRecord[payload " + payload() + ", missing " + missing + (inJoin ? ", in join" : "")
                + (dirty == CHANGED ? ", changed from " + oldPayload : dirty == NEW ? ", new" : "") + "]";
    }
}
