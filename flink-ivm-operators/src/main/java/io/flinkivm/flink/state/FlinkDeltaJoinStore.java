package io.flinkivm.flink.state;

import io.flinkivm.core.engine.join.DeltaJoinLogic;
import io.flinkivm.core.engine.join.DeltaJoinStore;
import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/** The fallback plan's state in keyed {@code MapState}s: relations, index lists and the result. */
public final class FlinkDeltaJoinStore<T> implements DeltaJoinStore<T> {
    private final MapStateAdapter<Tuple, T>[] relations;
    private final MapStateAdapter<Tuple, Tuple>[][] heads;
    private final MapStateAdapter<Tuple, Tuple>[][] nexts;
    private final MapStateAdapter<Tuple, T> result;

    /** Creates (or restores) the state; call from {@code open()} of a keyed operator. */
    @SuppressWarnings("unchecked")
    public FlinkDeltaJoinStore(DeltaJoinLogic<T> logic, TypeInformation<T> payloadType, RuntimeContext context) {
        int n = logic.query().body().size();
        relations = new MapStateAdapter[n];
        heads = new MapStateAdapter[n][];
        nexts = new MapStateAdapter[n][];
        for (int a = 0; a < n; a++) {
            relations[a] = payloadMap(context, StateNames.relation(a), payloadType);
            int indexes = logic.indexCount(a);
            heads[a] = new MapStateAdapter[indexes];
            nexts[a] = new MapStateAdapter[indexes];
            for (int i = 0; i < indexes; i++) {
                heads[a][i] = tupleMap(context, StateNames.indexHead(a, i));
                nexts[a][i] = tupleMap(context, StateNames.indexNext(a, i));
            }
        }
        result = payloadMap(context, StateNames.RESULT, payloadType);
    }

    private static <T> MapStateAdapter<Tuple, T> payloadMap(RuntimeContext context, String name,
            TypeInformation<T> payloadType) {
        return new MapStateAdapter<>(context.getMapState(
                new MapStateDescriptor<>(name, TupleTypeInfo.INSTANCE, payloadType)), name);
    }

    private static MapStateAdapter<Tuple, Tuple> tupleMap(RuntimeContext context, String name) {
        return new MapStateAdapter<>(context.getMapState(
                new MapStateDescriptor<>(name, TupleTypeInfo.INSTANCE, TupleTypeInfo.INSTANCE)), name);
    }

    @Override
    public KeyValueState<Tuple, T> relation(int atom) {
        return relations[atom];
    }

    @Override
    public KeyValueState<Tuple, Tuple> indexHead(int atom, int index) {
        return heads[atom][index];
    }

    @Override
    public KeyValueState<Tuple, Tuple> indexNext(int atom, int index) {
        return nexts[atom][index];
    }

    @Override
    public KeyValueState<Tuple, T> result() {
        return result;
    }

    @Override
    public Iterator<Map.Entry<Tuple, T>> resultEntries() {
        return result.entries();
    }
}
