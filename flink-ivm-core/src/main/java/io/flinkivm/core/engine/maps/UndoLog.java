package io.flinkivm.core.engine.maps;

import java.util.Arrays;
import org.apache.flink.annotation.Internal;

/**
 * The writes of one insert, so that an insert that fails half-way (e.g. a natural-number overflow
 * in a view above others it already updated) can be rolled back. Reused across inserts: no
 * allocation once its arrays have grown to the longest insert.
 */
@Internal
public final class UndoLog {
    private Object[] targets = new Object[16];
    private Object[] keys = new Object[16];
    private int[] slots = new int[16];
    private Object[] olds = new Object[16];
    private int size;

    public void clear() {
        Arrays.fill(targets, 0, size, null);
        Arrays.fill(keys, 0, size, null);
        Arrays.fill(olds, 0, size, null);
        size = 0;
    }

    /** Records that {@code map} held {@code old} (null: nothing) at {@code key}. */
    public <K, V> void mapEntry(KeyValueState<K, V> map, K key, V old) {
        add(map, key, -1, old);
    }

    /**
     * Writes {@code value} at {@code key} in {@code state} (null: removes the key) and records that it
     * held {@code old} (null: nothing).
     */
    public <K, V> void put(KeyValueState<K, V> state, K key, V old, V value) {
        if (value == null) {
            state.remove(key);
        } else {
            state.put(key, value);
        }
        add(state, key, -1, old);
    }

    /** Records that slot {@code slot} of {@code key}'s entry in a wide {@code map} held {@code old}. */
    public <K> void entrySlot(OpenHashMap<K, ?> map, K key, int slot, Object old) {
        add(map, key, -2 - slot, old);
    }

    /**
     * Records that {@code key}'s entry, every slot null, was removed from a wide {@code map} (its slots'
     * earlier values are in older records, which the rollback restores after it has re-added the entry).
     */
    public <K> void removedEntry(OpenHashMap<K, ?> map, K key) {
        add(map, key, REMOVED_ENTRY, null);
    }

    /** The slot mark of {@link #removedEntry}. */
    private static final int REMOVED_ENTRY = Integer.MIN_VALUE;

    private void add(Object target, Object key, int slot, Object old) {
        if (size == targets.length) {
            int n = size * 2;
            targets = Arrays.copyOf(targets, n);
            keys = Arrays.copyOf(keys, n);
            slots = Arrays.copyOf(slots, n);
            olds = Arrays.copyOf(olds, n);
        }
        targets[size] = target;
        keys[size] = key;
        slots[size] = slot;
        olds[size] = old;
        size++;
    }

    /** Restores every recorded value, newest first, and clears the log. */
    @SuppressWarnings("unchecked")
    public void rollback() {
        for (int i = size - 1; i >= 0; i--) {
            if (slots[i] == REMOVED_ENTRY) {
                ((OpenHashMap<Object, ?>) targets[i]).addEntry(keys[i]);
            } else if (slots[i] <= -2) {
                OpenHashMap<Object, ?> map = (OpenHashMap<Object, ?>) targets[i];
                map.slots()[map.base(map.entry(keys[i])) - 2 - slots[i]] = olds[i];
            } else if (olds[i] == null) {
                ((KeyValueState<Object, Object>) targets[i]).remove(keys[i]);
            } else {
                ((KeyValueState<Object, Object>) targets[i]).put(keys[i], olds[i]);
            }
        }
        clear();
    }
}
