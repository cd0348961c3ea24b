package io.flinkivm.flink.sink;

import io.flinkivm.core.engine.join.JoinRecordStore;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.common.StateAccessException;
import io.flinkivm.flink.types.TaggedTuple;
import io.flinkivm.flink.types.TaggedTupleSerializer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.streaming.api.operators.KeyContext;

/**
 * A changelog sink's marks of the entries (records, q-tree entries) changed since the last trigger,
 * by Flink key: held in memory between triggers, and written to a keyed {@code ListState} only when
 * more than {@link #HELD} (by default) are held or a checkpoint is taken ({@link #spill()}), so that a
 * mark costs no state call in the common case, and a trigger reads no state to find them. A trigger
 * visits the keys of {@link #keys}, and under each of them {@link #forEach} and then {@link #clear}.
 *
 * <p>Spilled marks are a list per Flink key, not a map entry per mark: on RocksDB a spill appends
 * without a read (a merge), and a trigger reads a key's marks with one point read and drops them with
 * one delete, where a map costs an iterator (a seek through every sorted run) to read them and another
 * to delete them. A mark spilled twice, or spilled and then held again, is visited once.
 *
 * <p>Without a key context (a store the operator does not use) every mark goes to the state.
 */
@Internal
public final class DirtyMarks {
    /** The most marks held in memory (about 100 bytes each) before they are written to the state. */
    public static final int HELD = 1 << 16;

    private final String name;
    private final ListState<TaggedTuple> state;
    private final KeyContext keys;
    /** The marks held in memory, by Flink key. */
    private final Map<Object, Set<TaggedTuple>> held = new HashMap<>();
    /** The most marks held in memory. */
    private final int most;

    private int heldCount;
    /** A set of marks emptied by {@link #clear}, for the next key marked: a trigger does not regrow one. */
    private Set<TaggedTuple> spare;
    /**
     * Whether the state may hold marks of keys a trigger has not visited yet: after a restore and a
     * spill, until the next trigger takes the keys.
     */
    private boolean inState = true;
    /** During a trigger: the keys the state held marks of and the trigger has not cleared yet. */
    private Set<Object> stateKeys = new HashSet<>();

    /**
     * Creates (or restores) the state {@code name}, holding up to {@link #HELD} marks in memory.
     *
     * @param keys the operator's key context, or null: every mark is written to the state
     */
    public DirtyMarks(KeyedStateStore context, String name, KeyContext keys) {
        this(context, name, keys, HELD);
    }

    /** As {@link #DirtyMarks(KeyedStateStore, String, KeyContext)}, holding up to {@code most} marks in memory. */
    public DirtyMarks(KeyedStateStore context, String name, KeyContext keys, int most) {
        if (most < 0) {
            throw new IllegalArgumentException("most must be >= 0, got " + most);
        }
        this.name = name;
        this.state = context.getListState(new ListStateDescriptor<>(name, TaggedTupleSerializer.INSTANCE));
        this.keys = keys;
        this.most = most;
    }

    /** Marks {@code (node, tuple)} of the current key; a node's tuple is marked at most once between triggers. */
    public void mark(int node, Tuple tuple) {
        TaggedTuple mark = new TaggedTuple(node, tuple);
        if (keys == null) {
            put(mark);
            return;
        }
        if (held.computeIfAbsent(keys.getCurrentKey(), k -> emptySet()).add(mark) && ++heldCount > most) {
            spill();
        }
    }

    /** Writes the marks held in memory to the state (before a checkpoint, and when too many are held). */
    public void spill() {
        if (heldCount == 0) {
            return;
        }
        Object current = keys.getCurrentKey();
        try {
            for (Map.Entry<Object, Set<TaggedTuple>> e : held.entrySet()) {
                keys.setCurrentKey(e.getKey());
                state.addAll(new ArrayList<>(e.getValue()));
            }
        } catch (Exception e) {
            throw new StateAccessException("cannot write state " + name, e);
        }
        if (current != null) {
            keys.setCurrentKey(current);
        }
        held.clear();
        heldCount = 0;
        inState = true;
    }

    /**
     * A trigger's start: the Flink keys with marks, each once. The trigger must {@link #clear} each of
     * them before the next mark, or leave its marks for a later trigger.
     */
    public List<Object> keys(KeyedStateBackend<?> backend) throws Exception {
        Set<Object> out = new LinkedHashSet<>(held.keySet());
        if (inState) {
            Set<Object> stored = new HashSet<>();
            try (Stream<?> s = backend.getKeys(name, VoidNamespace.INSTANCE)) {
                s.forEach(stored::add);
            }
            stateKeys = stored;
            inState = keys == null;
        }
        // Also the keys a trigger left with their marks in the state (windows held back until they close).
        out.addAll(stateKeys);
        return new ArrayList<>(out);
    }

    /**
     * Calls {@code action} once with every mark of the current key: those in the state (read before the
     * first call), then those held in memory, which {@code action} must not change (mark or clear).
     */
    public void forEach(JoinRecordStore.DirtyAction action) {
        Set<TaggedTuple> own = keys == null ? Set.of() : held.getOrDefault(keys.getCurrentKey(), Set.of());
        if (storedUnderCurrentKey()) {
            Set<TaggedTuple> stored = new LinkedHashSet<>();
            try {
                Iterable<TaggedTuple> list = state.get();
                if (list != null) {
                    list.forEach(stored::add);
                }
            } catch (Exception e) {
                throw new StateAccessException("cannot read state " + name, e);
            }
            if (!stored.isEmpty()) {
                stored.addAll(own);
                stored.forEach(mark -> action.accept(mark.tag(), mark.tuple()));
                return;
            }
        }
        for (TaggedTuple mark : own) {
            action.accept(mark.tag(), mark.tuple());
        }
    }

    /** Removes the marks of the current key. */
    public void clear() {
        if (storedUnderCurrentKey()) {
            state.clear();
            if (keys != null) {
                stateKeys.remove(keys.getCurrentKey());
            }
        }
        if (keys != null) {
            Set<TaggedTuple> marks = held.remove(keys.getCurrentKey());
            if (marks != null) {
                heldCount -= marks.size();
                marks.clear();
                spare = marks;
            }
        }
    }

    private Set<TaggedTuple> emptySet() {
        Set<TaggedTuple> s = spare;
        spare = null;
        return s != null ? s : new LinkedHashSet<>();
    }

    /** Whether the state may hold marks of the current key. */
    private boolean storedUnderCurrentKey() {
        return inState || stateKeys.contains(keys.getCurrentKey());
    }

    private void put(TaggedTuple mark) {
        try {
            state.add(mark);
        } catch (Exception e) {
            throw new StateAccessException("cannot write state " + name, e);
        }
    }
}
