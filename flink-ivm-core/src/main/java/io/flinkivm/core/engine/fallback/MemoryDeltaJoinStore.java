package io.flinkivm.core.engine.fallback;

import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.engine.maps.MemoryMaps;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.engine.maps.StateCounts;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.util.Iterator;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.flink.annotation.Internal;

/**
 * A {@link DeltaJoinStore} in open-addressing hash maps. Each atom's tuples are one wide map whose
 * entry holds the tuple's payload and, for each of the atom's indexes, its next and previous links
 * (so a tuple whose payload returns to zero leaves in O(1)): a walk along an index reads a tuple's
 * payload and its next link in one entry, where separate maps would cost a lookup each. Beside them
 * the indexes' list heads and the result; with a changelog also the payloads at the last trigger of
 * the result tuples changed since ({@link TrackedResult}). The in-memory engine's state, and a part of
 * the Flink operator's on the heap backend.
 *
 * @param <T> the payload type
 */
@Internal
public final class MemoryDeltaJoinStore<T> extends IndexedDeltaJoinStore<T> {
    /** Per atom: tuple → [payload, next of index 0, previous of index 0, next of index 1, ...]. */
    private final OpenHashMap<Tuple, Object>[] records;

    /** Per atom and index: the list heads (the same maps as {@link #heads}, typed to count them). */
    private final OpenHashMap<Tuple, Tuple>[][] headMaps;

    private final OpenHashMap<Tuple, T> result;
    private final OpenHashMap<Tuple, T> before;
    private final TrackedResult<T> tracked;

    /**
     * @param logic the plan's logic, for the atoms and their indexes
     * @param maps makes the hash maps (plain, or counting)
     * @param changelog the semiring, to remember the changes since the last trigger; null for snapshots only
     */
    @SuppressWarnings("unchecked")
    public MemoryDeltaJoinStore(DeltaJoinLogic<T> logic, MemoryMaps maps, Semiring<T> changelog) {
        super(logic);
        int n = logic.query().body().size();
        records = new OpenHashMap[n];
        headMaps = new OpenHashMap[n][];
        for (int a = 0; a < n; a++) {
            int indexes = logic.indexCount(a);
            records[a] = maps.map(StateCounts.Role.DELTA_JOIN, 1 + 2 * indexes);
            relations[a] = new Slot<>(records[a], 0);
            headMaps[a] = new OpenHashMap[indexes];
            for (int i = 0; i < indexes; i++) {
                headMaps[a][i] = maps.map(StateCounts.Role.DELTA_JOIN);
                heads[a][i] = headMaps[a][i];
                nexts[a][i] = new Slot<>(records[a], 1 + 2 * i);
                prevs[a][i] = new Slot<>(records[a], 2 + 2 * i);
            }
        }
        result = maps.map(StateCounts.Role.RESULT);
        before = changelog == null ? null : maps.map(StateCounts.Role.RESULT);
        tracked = changelog == null ? null : new TrackedResult<>(result, before, changelog);
    }

    @Override
    public KeyValueState<Tuple, T> result() {
        return tracked == null ? result : tracked;
    }

    @Override
    public Iterator<Map.Entry<Tuple, T>> resultEntries() {
        return result.entries();
    }

    /** The result's payload of {@code head}, or null. */
    public T resultPayload(Tuple head) {
        return result.get(head);
    }

    /** The number of atom {@code atom}'s tuples. */
    public int relationSize(int atom) {
        return records[atom].size();
    }

    /** Atom {@code atom}'s tuples and payloads (to write them; restore them with {@link DeltaJoinLogic#load}). */
    @SuppressWarnings("unchecked")
    public void forEachTuple(int atom, BiConsumer<Tuple, T> action) {
        OpenHashMap<Tuple, Object> map = records[atom];
        Object[] slots = map.slots();
        for (int e = 0; e < map.capacity(); e++) {
            Tuple key = map.keyAt(e);
            if (key != null) {
                action.accept(key, (T) slots[map.base(e)]);
            }
        }
    }

    /** The result tuples and payloads (to write and read them). */
    public OpenHashMap<Tuple, T> resultMap() {
        return result;
    }

    /**
     * The result tuples changed since the last trigger with their payloads then (to write and read
     * them); null without a changelog.
     */
    public OpenHashMap<Tuple, T> rememberedMap() {
        return before;
    }

    /** Whether a result tuple changed since the last trigger (changelog only). */
    public boolean hasChanges() {
        return before != null && before.size() > 0;
    }

    /**
     * Changelog: hands every result tuple whose payload changed since the last trigger to {@code out},
     * then forgets the changes.
     */
    public void changes(Consumer<ResultChange<T>> out) {
        tracked.changes(before.entries(), out);
        before.clear();
    }

    /** Stored atom tuples, index entries (list heads and links) and result tuples. */
    public long entries() {
        long total = result.size();
        for (int a = 0; a < records.length; a++) {
            OpenHashMap<Tuple, Object> map = records[a];
            Object[] slots = map.slots();
            for (int e = 0; e < map.capacity(); e++) {
                if (map.keyAt(e) != null) {
                    for (int s = 0; s < map.width(); s++) {
                        total += slots[map.base(e) + s] != null ? 1 : 0;
                    }
                }
            }
            for (OpenHashMap<Tuple, Tuple> h : headMaps[a]) {
                total += h.size();
            }
        }
        return total;
    }

    /**
     * One slot of the wide map of an atom's tuples, as a key-value state: a write to a tuple without
     * an entry adds one, and an entry whose slots are all null leaves the map.
     */
    private static final class Slot<V> implements KeyValueState<Tuple, V> {
        private final OpenHashMap<Tuple, Object> map;
        private final int slot;

        Slot(OpenHashMap<Tuple, Object> map, int slot) {
            this.map = map;
            this.slot = slot;
        }

        @Override
        @SuppressWarnings("unchecked")
        public V get(Tuple key) {
            int e = map.entry(key);
            return e < 0 ? null : (V) map.slots()[map.base(e) + slot];
        }

        @Override
        public void put(Tuple key, V value) {
            if (value == null) {
                remove(key);
                return;
            }
            int e = map.entry(key);
            if (e < 0) {
                e = map.addEntry(key);
            }
            map.slots()[map.base(e) + slot] = value;
        }

        @Override
        public void remove(Tuple key) {
            int e = map.entry(key);
            if (e < 0) {
                return;
            }
            Object[] slots = map.slots();
            int base = map.base(e);
            slots[base + slot] = null;
            for (int s = 0; s < map.width(); s++) {
                if (slots[base + s] != null) {
                    return;
                }
            }
            map.remove(key);
        }
    }
}
