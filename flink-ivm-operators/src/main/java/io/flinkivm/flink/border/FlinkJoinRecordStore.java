package io.flinkivm.flink.border;

import io.flinkivm.core.engine.join.JoinLayout;
import io.flinkivm.core.engine.join.JoinRecord;
import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.common.KeyFilter;
import io.flinkivm.flink.common.StateAccessException;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.sink.DirtyMarks;
import io.flinkivm.flink.types.JoinRecordSerializer;
import io.flinkivm.flink.types.TaggedTuple;
import io.flinkivm.flink.types.TaggedTupleSerializer;
import io.flinkivm.flink.types.TupleSerializer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.api.operators.KeyContext;

/**
 * A {@link JoinRecordStore} in three keyed {@code MapState}s, scoped to the current key: the records
 * (user key: record id and tuple), the list heads (user key: which list of which node, and the key) and
 * the dirty marks of a changelog ({@link DirtyMarks}, mostly held in memory). Three states are three
 * RocksDB column families whatever the plan, so a sink's writes fill a few large memtables instead of
 * one small one per join node and list. Each
 * access is a point read or write; a record read is a copy that {@link #update} writes back. A
 * record's links and a list's first tuple are stored without the values of the list's key, which the
 * state key holds ({@link RelativeLinks}). With a {@link KeyFilter} of the keys written, a read of a
 * record or head that was never written (a new root tuple, a key without waiting tuples) is answered
 * without a state read.
 *
 * <p>With a key context, the records and list heads written are held in memory (a write-back cache)
 * and written to the states when they fall out of it, before a checkpoint, and before a scan of the
 * states ({@link #flush}): a record written by an insert, read and written again by the next trigger,
 * and updated by later inserts costs one state write instead of a read and a write per visit. The
 * cache is two generations of up to half of {@link #HELD} entries each, in one map per generation over
 * every Flink key: entries go into the young one; when it is full, the old one is written to the
 * states and the young one becomes the old one. An old entry written again moves back to the young
 * one, so an entry stays in memory as long as it is written again within a generation, and only
 * entries left alone that long are written out. Reads look in memory first, so the logic sees one store.
 *
 * @param <T> the payload type
 */
final class FlinkJoinRecordStore<T> implements JoinRecordStore<T> {
    /** The most records and list heads held in memory (a few hundred bytes each) before they are written. */
    static final int HELD = 1 << 16;
    /** A held head that was removed: the state's entry goes at the next flush. */
    private static final Tuple REMOVED = Tuple.wrap(new Object[] {"removed"});

    private final MapState<TaggedTuple, JoinRecord<T>> records;
    private final MapState<TaggedTuple, Tuple> heads;
    private final DirtyMarks dirty;
    /** Where the key filter's tags of heads start (records' tags are their record ids, below it). */
    private static final int HEAD_TAGS = 1 << 20;
    /** Head tags per node: live list at {@code node * stride}, in-join list at +1, waiting lists at +2+child. */
    private final int stride;
    /** The links' stored form: without the values they share with their record's tuple. */
    private final RelativeLinks links;
    /** While a trigger reads: the records read or written so far (bounded, least recently used out), or null. */
    private LinkedHashMap<TaggedTuple, JoinRecord<T>> cache;

    private int cacheSize;
    /** The keys of records and heads written by this subtask (or found at a restore), or null. */
    private final KeyFilter filter;
    /** The operator's key context (for the filter's keys), or null. */
    private final KeyContext keys;

    private long filtered;
    /**
     * Records and heads written and not yet in the states, the young generation; null without a key
     * context. A record under its tag (its node), a head whole under {@link #HEAD_TAGS} + its tag, or
     * {@link #REMOVED}.
     */
    private Map<Held, Object> young;
    /** The old generation of held entries, written to the states when the young one fills up. */
    private Map<Held, Object> old;
    /** The most entries of the young generation. */
    private final int generation;
    /** Flink keys dropped ({@link #forgetCurrentKey}) whose held entries are not removed yet. */
    private final Set<Object> forgotten = new HashSet<>();

    /** Creates (or restores) the states, from a keyed operator's {@code initializeState}; no key filter. */
    public FlinkJoinRecordStore(KeyedStateStore context, JoinLayout layout, TypeSerializer<T> payloadSerializer) {
        this(context, layout, payloadSerializer, null, false);
    }

    /**
     * Creates (or restores) the states, from a keyed operator's {@code initializeState}, with a
     * {@link KeyFilter} of the keys written if {@code keyFilter}: after a restore, call
     * {@link #rememberStoredKeys()} under every key of the states before the first read.
     *
     * @param keys the operator's key context, which the changelog's marks are held in memory by (null:
     *     every mark goes to the state); needed for a key filter
     */
    public FlinkJoinRecordStore(
            KeyedStateStore context,
            JoinLayout layout,
            TypeSerializer<T> payloadSerializer,
            KeyContext keys,
            boolean keyFilter) {
        this(context, layout, payloadSerializer, keys, keyFilter, HELD);
    }

    /**
     * As {@link #FlinkJoinRecordStore(KeyedStateStore, JoinLayout, TypeSerializer, KeyContext, boolean)},
     * holding up to {@code most} records and heads in memory (0: every write goes to the states).
     */
    FlinkJoinRecordStore(
            KeyedStateStore context,
            JoinLayout layout,
            TypeSerializer<T> payloadSerializer,
            KeyContext keys,
            boolean keyFilter,
            int most) {
        records = context.getMapState(new MapStateDescriptor<>(
                StateNames.JOIN_RECORDS,
                TaggedTupleSerializer.INSTANCE,
                new JoinRecordSerializer<>(payloadSerializer)));
        heads = context.getMapState(new MapStateDescriptor<>(
                StateNames.JOIN_HEADS, TaggedTupleSerializer.INSTANCE, TupleSerializer.INSTANCE));
        dirty = new DirtyMarks(context, StateNames.JOIN_DIRTY, keys);
        links = new RelativeLinks(layout);
        int widest = 0;
        for (int n = 0; n < layout.nodeCount(); n++) {
            widest = Math.max(widest, layout.joinChildren(n).length);
        }
        stride = widest + 2;
        this.keys = keys;
        this.filter = keys == null || !keyFilter ? null : new KeyFilter();
        this.young = keys == null || most == 0 ? null : new HashMap<>();
        this.old = young == null ? null : new HashMap<>();
        this.generation = Math.max(1, most / 2);
    }

    /** Adds the keys of the current key's records and heads in the states to the key filter (after a restore). */
    public void rememberStoredKeys() {
        if (filter == null) {
            return;
        }
        Object key = keys.getCurrentKey();
        try {
            for (TaggedTuple t : records.keys()) {
                filter.add(key, t.tag(), t.tuple());
            }
            for (TaggedTuple t : heads.keys()) {
                filter.add(key, HEAD_TAGS + t.tag(), t.tuple());
            }
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + StateNames.JOIN_RECORDS, e);
        }
    }

    /** Reads the key filter answered without a state read so far (0 without a filter). */
    public long filteredReads() {
        return filtered;
    }

    /** Whether the states may hold record {@code tag} (or, offset by {@link #HEAD_TAGS}, a head) of {@code tuple}. */
    private boolean mayHold(int tag, Tuple tuple) {
        if (filter == null || filter.mightContain(keys.getCurrentKey(), tag, tuple)) {
            return true;
        }
        filtered++;
        return false;
    }

    private void written(int tag, Tuple tuple) {
        if (filter != null) {
            filter.add(keys.getCurrentKey(), tag, tuple);
        }
    }

    /**
     * Keeps up to {@code entries} records read or written in memory until {@link #endReads()}: a
     * trigger's enumeration reads the same child records again and again (a small root view joined
     * with a large one), which are then one RocksDB read each. Writes go through to the state.
     */
    public void startReads(int entries) {
        cacheSize = entries;
        cache = new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<TaggedTuple, JoinRecord<T>> eldest) {
                return size() > cacheSize;
            }
        };
    }

    /** Ends {@link #startReads}: every read goes to the state again. */
    public void endReads() {
        cache = null;
    }

    @Override
    public JoinRecord<T> get(int node, Tuple tuple) {
        if (young != null) {
            @SuppressWarnings("unchecked") // a record's tag is its node, below HEAD_TAGS
            JoinRecord<T> r = (JoinRecord<T>) held(new Held(currentKey(), node, tuple));
            if (r != null) {
                return r;
            }
        }
        TaggedTuple key = new TaggedTuple(node, tuple);
        if (cache != null) {
            JoinRecord<T> r = cache.get(key);
            if (r != null) {
                return r;
            }
        }
        if (!mayHold(node, tuple)) {
            return null;
        }
        JoinRecord<T> r;
        try {
            r = records.get(key);
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + StateNames.JOIN_RECORDS, e);
        }
        if (r != null) {
            r = links.whole(node, tuple, r);
        }
        if (cache != null && r != null) {
            cache.put(key, r);
        }
        return r;
    }

    @Override
    public Iterator<Map.Entry<Tuple, JoinRecord<T>>> records(int node) {
        Iterator<Map.Entry<TaggedTuple, JoinRecord<T>>> it = records();
        return new Iterator<>() {
            private Map.Entry<Tuple, JoinRecord<T>> next;

            @Override
            public boolean hasNext() {
                while (next == null && it.hasNext()) {
                    Map.Entry<TaggedTuple, JoinRecord<T>> e = it.next();
                    if (e.getKey().tag() == node) {
                        Tuple t = e.getKey().tuple();
                        next = Map.entry(t, links.whole(node, t, e.getValue()));
                    }
                }
                return next != null;
            }

            @Override
            public Map.Entry<Tuple, JoinRecord<T>> next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                Map.Entry<Tuple, JoinRecord<T>> out = next;
                next = null;
                return out;
            }
        };
    }

    @Override
    public void add(int node, Tuple tuple, JoinRecord<T> record) {
        update(node, tuple, record);
    }

    @Override
    public void update(int node, Tuple tuple, JoinRecord<T> record) {
        if (young != null) {
            if (hold(new Held(currentKey(), node, tuple), record)) {
                written(node, tuple);
            }
            return;
        }
        written(node, tuple);
        TaggedTuple key = new TaggedTuple(node, tuple);
        if (cache != null) {
            cache.put(key, record);
        }
        try {
            records.put(key, links.stored(node, record));
        } catch (Exception e) {
            throw new StateAccessException("cannot write state " + StateNames.JOIN_RECORDS, e);
        }
    }

    /** A list's first tuple; {@code keyPositions}: where the list's key is in its tuples (not stored). */
    private Tuple head(int tag, Tuple key, int[] keyPositions) {
        if (young != null) {
            Tuple t = (Tuple) held(new Held(currentKey(), HEAD_TAGS + tag, key));
            if (t != null) {
                return t == REMOVED ? null : t;
            }
        }
        if (!mayHold(HEAD_TAGS + tag, key)) {
            return null;
        }
        Tuple rest;
        try {
            rest = heads.get(new TaggedTuple(tag, key));
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + StateNames.JOIN_HEADS, e);
        }
        return rest == null ? null : RelativeLinks.headWhole(key, rest, keyPositions);
    }

    private void setHead(int tag, Tuple key, Tuple tuple, int[] keyPositions) {
        if (young != null) {
            if (hold(new Held(currentKey(), HEAD_TAGS + tag, key), tuple == null ? REMOVED : tuple) && tuple != null) {
                written(HEAD_TAGS + tag, key);
            }
            return;
        }
        if (tuple != null) {
            written(HEAD_TAGS + tag, key);
        }
        writeHead(tag, key, tuple, keyPositions);
    }

    private void writeHead(int tag, Tuple key, Tuple tuple, int[] keyPositions) {
        try {
            if (tuple == null) {
                heads.remove(new TaggedTuple(tag, key));
            } else {
                heads.put(new TaggedTuple(tag, key), RelativeLinks.drop(tuple, keyPositions));
            }
        } catch (Exception e) {
            throw new StateAccessException("cannot write state " + StateNames.JOIN_HEADS, e);
        }
    }

    @Override
    public Tuple liveHead(int node, Tuple key) {
        return head(node * stride, key, links.liveKey(node));
    }

    @Override
    public void setLiveHead(int node, Tuple key, Tuple tuple) {
        setHead(node * stride, key, tuple, links.liveKey(node));
    }

    @Override
    public Tuple waitHead(int node, int child, Tuple key) {
        return head(node * stride + 2 + child, key, links.waitKey(node, child));
    }

    @Override
    public void setWaitHead(int node, int child, Tuple key, Tuple tuple) {
        setHead(node * stride + 2 + child, key, tuple, links.waitKey(node, child));
    }

    @Override
    public Tuple upHead(int child, Tuple key) {
        return head(child * stride + 1, key, links.upKey(child));
    }

    @Override
    public void setUpHead(int child, Tuple key, Tuple parentTuple) {
        setHead(child * stride + 1, key, parentTuple, links.upKey(child));
    }

    @Override
    public void markDirty(int node, Tuple tuple) {
        dirty.mark(node, tuple);
    }

    @Override
    public void forEachDirty(DirtyAction action) {
        dirty.forEach(action);
    }

    @Override
    public void clearDirty() {
        dirty.clear();
    }

    /** The marks of the records changed since the last trigger. */
    public DirtyMarks dirtyMarks() {
        return dirty;
    }

    /**
     * Every record of the current key, with its record id (for counting them after a restore), its
     * links in their stored form (without the values they share with the record's tuple).
     */
    public Iterator<Map.Entry<TaggedTuple, JoinRecord<T>>> records() {
        flush();
        try {
            return records.iterator();
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + StateNames.JOIN_RECORDS, e);
        }
    }

    /** Whether the current key has a record (it holds a part of the join). */
    public boolean isEmpty() {
        flush();
        try {
            return records.isEmpty();
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + StateNames.JOIN_RECORDS, e);
        }
    }

    /**
     * The operator's current key. If it was dropped ({@link #forgetCurrentKey}) and is used again, every
     * held entry is written out first but those of dropped keys: one pass over the cache for all the
     * keys dropped since (a window's close drops many keys, and later rows bring many of them back),
     * rather than a pass per key.
     */
    private Object currentKey() {
        Object key = keys.getCurrentKey();
        if (!forgotten.isEmpty() && forgotten.contains(key)) {
            flush();
        }
        return key;
    }

    /** The entry held under {@code key} (young generation first), or null. */
    private Object held(Held key) {
        Object v = young.get(key);
        return v != null ? v : old.get(key);
    }

    /**
     * Holds {@code value} under {@code key} in the young generation (moving it from the old one); when
     * the young generation is full, writes the old one out and starts a new one.
     *
     * @return whether the entry was not held before
     */
    private boolean hold(Held key, Object value) {
        if (young.put(key, value) != null) {
            return false;
        }
        boolean wasOld = old.remove(key) != null;
        if (young.size() > generation) {
            write(old, keys.getCurrentKey());
            if (!forgotten.isEmpty()) {
                young.keySet().removeIf(h -> forgotten.contains(h.key));
                forgotten.clear();
            }
            Map<Held, Object> emptied = old;
            old = young;
            young = emptied;
        }
        return !wasOld;
    }

    /** Writes the records and heads held in memory to the states (before a checkpoint or a scan of the states). */
    public void flush() {
        if (young == null) {
            return;
        }
        if (!young.isEmpty() || !old.isEmpty()) {
            Object current = keys.getCurrentKey();
            write(old, current);
            write(young, current);
        }
        forgotten.clear();
    }

    /**
     * Drops the entries held of the current key, whose states were cleared (a state TTL's expiry, a
     * closed window): they are skipped when they are written, and gone after the next change of
     * generation or once the key is used again.
     */
    public void forgetCurrentKey() {
        if (young != null && !(young.isEmpty() && old.isEmpty())) {
            forgotten.add(keys.getCurrentKey());
        }
    }

    /**
     * Writes {@code entries} to the states under their keys (but those of dropped keys) and empties it;
     * then makes {@code current} the current key again.
     */
    @SuppressWarnings("unchecked") // tags below HEAD_TAGS hold records
    private void write(Map<Held, Object> entries, Object current) {
        Object at = current;
        try {
            for (Map.Entry<Held, Object> e : entries.entrySet()) {
                Held h = e.getKey();
                if (!forgotten.isEmpty() && forgotten.contains(h.key)) {
                    continue;
                }
                if (h.key != at && !h.key.equals(at)) {
                    keys.setCurrentKey(h.key);
                    at = h.key;
                }
                if (h.tag < HEAD_TAGS) {
                    try {
                        records.put(new TaggedTuple(h.tag, h.tuple), links.stored(h.tag, (JoinRecord<T>) e.getValue()));
                    } catch (Exception ex) {
                        throw new StateAccessException("cannot write state " + StateNames.JOIN_RECORDS, ex);
                    }
                } else {
                    int tag = h.tag - HEAD_TAGS;
                    Tuple head = e.getValue() == REMOVED ? null : (Tuple) e.getValue();
                    writeHead(tag, h.tuple, head, headKey(tag));
                }
            }
        } finally {
            if (at != current && current != null) {
                keys.setCurrentKey(current);
            }
        }
        entries.clear();
    }

    /** A held entry's key: the Flink key, the tag and the tuple, with one hash of the three. */
    private static final class Held {
        final Object key;
        final int tag;
        final Tuple tuple;
        private final int hash;

        Held(Object key, int tag, Tuple tuple) {
            this.key = key;
            this.tag = tag;
            this.tuple = tuple;
            int h = (key.hashCode() * 31 + tag) * 0x9e3779b9 + tuple.hashCode();
            this.hash = h ^ (h >>> 15);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Held h
                    && hash == h.hash
                    && tag == h.tag
                    && tuple.equals(h.tuple)
                    && (key == h.key || key.equals(h.key));
        }
    }

    /** Where the key of the list with head tag {@code tag} is in its members (see {@link #stride}). */
    private int[] headKey(int tag) {
        int node = tag / stride;
        int kind = tag % stride;
        return kind == 0 ? links.liveKey(node) : kind == 1 ? links.upKey(node) : links.waitKey(node, kind - 2);
    }
}
