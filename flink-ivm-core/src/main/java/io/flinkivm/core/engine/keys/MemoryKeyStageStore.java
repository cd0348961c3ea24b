package io.flinkivm.core.engine.keys;

import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A key stage's state in hash maps (the in-memory engine). Not thread-safe. */
public final class MemoryKeyStageStore<T> implements KeyStageStore<T> {
    private final Map<Tuple, KeyRow<T>> rows = new HashMap<>();
    private final Map<Tuple, List<StageRow<T>>> waiting = new HashMap<>();
    private long waitingRows;

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

    /** Rows (and marks of dropped rows) stored under their keys. */
    public long keyRows() {
        return rows.size();
    }

    /** Rows waiting for their key rows. */
    public long waitingRows() {
        return waitingRows;
    }
}
