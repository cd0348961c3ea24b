package io.flinkivm.core.engine.keys;

import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/** A key stage's state in hash maps (the in-memory engine). Not thread-safe. */
@Internal
public final class MemoryKeyStageStore<T> implements KeyStageStore<T> {
    private final Map<Tuple, KeyRow<T>> rows = new HashMap<>();
    private final Map<Tuple, List<StageRow<T>>> waiting = new HashMap<>();
    private final Map<Tuple, Map<Tuple, T>> references = new HashMap<>();
    private long waitingRows;
    private long referenceRows;

    @Override
    public KeyRow<T> keyRow(Tuple key) {
        return rows.get(key);
    }

    @Override
    public void putKeyRow(Tuple key, KeyRow<T> row) {
        rows.put(key, row);
    }

    @Override
    public void addWaiting(Tuple key, StageRow<T> row) {
        waiting.computeIfAbsent(key, k -> new ArrayList<>(2)).add(row);
        waitingRows++;
    }

    @Override
    public List<StageRow<T>> takeWaiting(Tuple key) {
        List<StageRow<T>> rows = waiting.remove(key);
        if (rows == null) {
            return List.of();
        }
        waitingRows -= rows.size();
        return rows;
    }

    @Override
    public void removeKeyRow(Tuple key) {
        rows.remove(key);
    }

    @Override
    public T reference(Tuple key, Tuple reference) {
        Map<Tuple, T> of = references.get(key);
        return of == null ? null : of.get(reference);
    }

    @Override
    public void putReference(Tuple key, Tuple reference, T payload) {
        if (payload == null) {
            Map<Tuple, T> of = references.get(key);
            if (of != null && of.remove(reference) != null) {
                referenceRows--;
                if (of.isEmpty()) {
                    references.remove(key);
                }
            }
            return;
        }
        if (references.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(reference, payload) == null) {
            referenceRows++;
        }
    }

    @Override
    public List<Map.Entry<Tuple, T>> references(Tuple key) {
        Map<Tuple, T> of = references.get(key);
        return of == null ? List.of() : new ArrayList<>(of.entrySet());
    }

    /** Under deletes: the rows that look a key up, kept to retract and re-emit them. */
    public long referenceRows() {
        return referenceRows;
    }

    /** Rows (and marks of dropped rows) stored under their keys. */
    public long keyRows() {
        return rows.size();
    }

    /** Rows waiting for their key rows. */
    public long waitingRows() {
        return waitingRows;
    }
}
