package io.flinkivm.flink.keys;

import io.flinkivm.core.engine.keys.KeyStageStore;
import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.common.StateAccessException;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.types.StageRowSerializer;
import io.flinkivm.flink.types.TupleSerializer;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * A key stage's state in keyed state, keyed by the key value: the stored row ({@link StateNames#KEY_ROW})
 * and the rows waiting for it ({@link StateNames#KEY_WAITING}). The {@code key} arguments are the
 * current key; they are not used.
 */
final class FlinkKeyStageStore<T> implements KeyStageStore<T> {
    private final ValueState<Tuple> row;
    private final ListState<StageRow<T>> waiting;

    /** Creates (or restores) the state; call from {@code open()} of a keyed operator. */
    public FlinkKeyStageStore(RuntimeContext context, TypeSerializer<T> payloadSerializer) {
        row = context.getState(new ValueStateDescriptor<>(StateNames.KEY_ROW, TupleSerializer.INSTANCE));
        waiting = context.getListState(
                new ListStateDescriptor<>(StateNames.KEY_WAITING, new StageRowSerializer<>(payloadSerializer)));
    }

    @Override
    public Tuple keyRow(Tuple key) {
        try {
            return row.value();
        } catch (Exception e) {
            throw new StateAccessException("cannot read state " + StateNames.KEY_ROW, e);
        }
    }

    @Override
    public void putKeyRow(Tuple key, Tuple value) {
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
