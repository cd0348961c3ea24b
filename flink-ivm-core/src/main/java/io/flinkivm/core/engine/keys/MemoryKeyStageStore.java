package io.flinkivm.core.engine.keys;

import io.flinkivm.core.query.Tuple;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/** A key stage's state in hash maps (the in-memory engine). Not thread-safe. */
@Internal
public final class MemoryKeyStageStore<T> implements KeyStageStore<T> {
    private final Map<Tuple, Tuple> rows = new HashMap<>();
    private final Map<Tuple, List<StageRow<T>>> waiting = new HashMap<>();
    private long waitingRows;

    @Override
    public Tuple keyRow(Tuple key) {
        return rows.get(key);
    }

    @Override
    public void putKeyRow(Tuple key, Tuple row) {
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

    /** Rows stored under their keys. */
    public long keyRows() {
        return rows.size();
    }

    /** Rows waiting for their key rows. */
    public long waitingRows() {
        return waitingRows;
    }
}
