package io.flinkivm.flink.keys;

import io.flinkivm.core.engine.keys.KeyRow;
import io.flinkivm.core.engine.keys.KeyStageStore;
import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.common.StateAccessException;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.types.KeyRowSerializer;
import io.flinkivm.flink.types.StageRowSerializer;
import io.flinkivm.flink.types.TupleSerializer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * A key stage's state in keyed state, keyed by the key value: the stored row with its payload, or the
 * mark of a dropped row ({@link StateNames#KEY_ROW}, {@link KeyRowSerializer}), the rows waiting for
 * it ({@link StateNames#KEY_WAITING}), and under deletes the rows that look it up ({@link
 * StateNames#KEY_REFERENCES}). The {@code key} arguments are the current key; they are not
 * used.
 */
final class FlinkKeyStageStore<T> implements KeyStageStore<T> {
    private final ValueState<KeyRow<T>> row;
    private final ListState<StageRow<T>> waiting;
    /** Under deletes, the rows that look the key up ({@link StateNames#KEY_REFERENCES}); else null. */
    private final MapState<Tuple, T> references;

    /**
     * Creates (or restores) the state; call from {@code open()} of a keyed operator.
     *
     * @param withReferences whether the plan has deletes: the stage then keeps the rows that look each key up
     */
    public FlinkKeyStageStore(KeyedStateStore context, TypeSerializer<T> payloadSerializer, boolean withReferences) {
        row = context.getState(
                new ValueStateDescriptor<>(StateNames.KEY_ROW, new KeyRowSerializer<>(payloadSerializer)));
        waiting = context.getListState(
                new ListStateDescriptor<>(StateNames.KEY_WAITING, new StageRowSerializer<>(payloadSerializer)));
        references = withReferences
                ? context.getMapState(new MapStateDescriptor<>(
                        StateNames.KEY_REFERENCES, TupleSerializer.INSTANCE, payloadSerializer))
                : null;
    }

    @Override
    public KeyRow<T> keyRow(Tuple key) {
        try {
            return row.value();
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + StateNames.KEY_ROW, e);
        }
    }

    @Override
    public void putKeyRow(Tuple key, KeyRow<T> value) {
        try {
            row.update(value);
        } catch (Exception e) {
            throw new StateAccessException("cannot write state " + StateNames.KEY_ROW, e);
        }
    }

    @Override
    public void addWaiting(Tuple key, StageRow<T> value) {
        try {
            waiting.add(value);
        } catch (Exception e) {
            throw new StateAccessException("cannot write state " + StateNames.KEY_WAITING, e);
        }
    }

    @Override
    public void removeKeyRow(Tuple key) {
        row.clear();
    }

    @Override
    public T reference(Tuple key, Tuple reference) {
        try {
            return references.get(reference);
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + StateNames.KEY_REFERENCES, e);
        }
    }

    @Override
    public void putReference(Tuple key, Tuple reference, T payload) {
        try {
            if (payload == null) {
                references.remove(reference);
            } else {
                references.put(reference, payload);
            }
        } catch (Exception e) {
            throw new StateAccessException("cannot write state " + StateNames.KEY_REFERENCES, e);
        }
    }

    @Override
    public List<Map.Entry<Tuple, T>> references(Tuple key) {
        List<Map.Entry<Tuple, T>> out = new ArrayList<>();
        try {
            for (Map.Entry<Tuple, T> e : references.entries()) {
                out.add(Map.entry(e.getKey(), e.getValue()));
            }
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + StateNames.KEY_REFERENCES, e);
        }
        return out;
    }

    @Override
    public List<StageRow<T>> takeWaiting(Tuple key) {
        List<StageRow<T>> out = new ArrayList<>();
        try {
            Iterable<StageRow<T>> rows = waiting.get();
            if (rows != null) {
                rows.forEach(out::add);
            }
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + StateNames.KEY_WAITING, e);
        }
        if (!out.isEmpty()) {
            waiting.clear();
        }
        return out;
    }
}
