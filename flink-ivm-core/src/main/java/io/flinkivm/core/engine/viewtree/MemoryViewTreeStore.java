package io.flinkivm.core.engine.viewtree;

import io.flinkivm.core.engine.maps.LongCell;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.engine.maps.UndoLog;
import io.flinkivm.core.plan.ViewNode;
import io.flinkivm.core.plan.ViewTreePlan;
import io.flinkivm.core.query.Tuple;
import java.util.Arrays;
import org.apache.flink.annotation.Internal;

/**
 * The stateful join views of a plan's view trees in {@link OpenHashMap}s, one per view, each key's
 * children's payloads in place (a map of width arity; a {@link Long} payload in a {@link LongCell}
 * that later writes change in place, so an update stores no new object into the long-lived map). A read keeps the entry it found per step, so the
 * write of the same step needs no second lookup (a walk visits each view once, and views have maps of
 * their own, so no other write of the walk moves that entry). With an {@link UndoLog} every write is
 * recorded for a rollback (the in-memory engines); without one (the Flink tree operator's in-memory
 * state) writes are plain. Not thread-safe.
 */
@Internal
public final class MemoryViewTreeStore<T> implements ViewTreeStore<T>, ChildPayloads<T> {
    private final OpenHashMap<Tuple, Object>[] views;
    private final UndoLog undo;
    private int[] entries = new int[8];
    private Object[] values;
    private int base;

    /** Maps for the stateful views of {@code plan} (of tree {@code tree}, or of every tree if it is -1), no undo log. */
    public MemoryViewTreeStore(ViewTreePlan plan, int tree) {
        this(plan, tree, MemoryMaps.PLAIN, null);
    }

    @SuppressWarnings("unchecked")
    /**
     * Maps made by {@code maps}; with an undo log every write is recorded in {@code undo} (null: none).
     */
    public MemoryViewTreeStore(ViewTreePlan plan, int tree, MemoryMaps maps, UndoLog undo) {
        views = new OpenHashMap[plan.viewNodes().size()];
        for (ViewNode n : plan.viewNodes()) {
            if (n.isStateful() && (tree < 0 || n.tree() == tree)) {
                views[n.id()] = maps.map(StateCounts.Role.JOIN_VIEW, n.arity());
            }
        }
        this.undo = undo;
    }

    /** The map of stateful view {@code node} (null if this store does not hold it): view key to children's payloads. */
    public OpenHashMap<Tuple, Object> view(int node) {
        return views[node];
    }

    /** Number of view keys over all views. */
    public long entries() {
        long total = 0;
        for (OpenHashMap<Tuple, Object> m : views) {
            if (m != null) {
                total += m.size();
            }
        }
        return total;
    }

    @Override
    public ChildPayloads<T> read(int step, int node, Tuple key) {
        OpenHashMap<Tuple, Object> state = views[node];
        int e = state.entry(key);
        if (step == entries.length) {
            entries = Arrays.copyOf(entries, 2 * step);
        }
        entries[step] = e;
        values = e < 0 ? null : state.slots();
        base = e < 0 ? 0 : state.base(e);
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T get(int slot) {
        return values == null ? null : (T) LongCell.boxed(values[base + slot]);
    }

    @Override
    public void set(int slot, T payload) {
        throw new UnsupportedOperationException("read-only view of a join view's children");
    }

    @Override
    public void write(int step, int node, Tuple key, int slot, T value) {
        OpenHashMap<Tuple, Object> state = views[node];
        int e = entries[step];
        if (e < 0) {
            e = state.addEntry(key);
            if (undo != null) {
                undo.mapEntry(state, key, null);
            }
        }
        Object[] slots = state.slots();
        int at = state.base(e) + slot;
        Object old = slots[at];
        if (undo != null) {
            undo.entrySlot(state, key, slot, LongCell.boxed(old));
        }
        if (value instanceof Long v) {
            // A Long payload lives in a cell of its own that later writes change in place.
            if (old instanceof LongCell cell) {
                cell.value = v;
            } else {
                slots[at] = new LongCell(v);
            }
        } else {
            slots[at] = value;
        }
        if (value == null && allNull(slots, state.base(e), state.width())) {
            state.remove(key);
            if (undo != null) {
                undo.removedEntry(state, key);
            }
        }
    }

    private static boolean allNull(Object[] slots, int base, int width) {
        for (int i = 0; i < width; i++) {
            if (slots[base + i] != null) {
                return false;
            }
        }
        return true;
    }
}
