package io.flinkivm.flink.fallback;

import io.flinkivm.core.engine.fallback.DeltaJoinLogic;
import io.flinkivm.core.engine.fallback.IndexedDeltaJoinStore;
import io.flinkivm.core.engine.fallback.TrackedResult;
import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.ResultChange;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.common.MapStateAdapter;
import io.flinkivm.flink.common.StateNames;
import io.flinkivm.flink.types.TupleSerializer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * The fallback plan's state in keyed {@code MapState}s: relations, index lists and the result; where
 * tuples leave (inputs with deletes) the lists' previous links too, so that a tuple whose payload returns
 * to zero leaves in O(1); in changelog mode also the payloads at the last trigger of the result tuples
 * changed since ({@link TrackedResult}).
 */
final class FlinkDeltaJoinStore<T> extends IndexedDeltaJoinStore<T> {
    private final MapStateAdapter<Tuple, T> result;
    private final MapStateAdapter<Tuple, T> before;
    private final TrackedResult<T> tracked;

    /**
     * Creates (or restores) the state; call from {@code open()} of a keyed operator.
     *
     * @param payloadType the payloads' serializer in state
     * @param deletes whether tuples leave (some input has deletes): keeps the lists' previous links
     * @param changelog the semiring, to keep the changes since the last trigger; null for snapshots only
     */
    public FlinkDeltaJoinStore(
            DeltaJoinLogic<T> logic,
            TypeSerializer<T> payloadType,
            KeyedStateStore context,
            boolean deletes,
            Semiring<T> changelog) {
        super(logic);
        for (int a = 0; a < relations.length; a++) {
            relations[a] = payloadMap(context, StateNames.relation(a), payloadType);
            for (int i = 0; i < heads[a].length; i++) {
                heads[a][i] = tupleMap(context, StateNames.indexHead(a, i));
                nexts[a][i] = tupleMap(context, StateNames.indexNext(a, i));
                if (deletes) {
                    prevs[a][i] = tupleMap(context, StateNames.indexPrev(a, i));
                }
            }
        }
        result = payloadMap(context, StateNames.RESULT, payloadType);
        before = changelog == null ? null : payloadMap(context, StateNames.RESULT_BEFORE, payloadType);
        tracked = changelog == null ? null : new TrackedResult<>(result, before, changelog);
    }

    private static <T> MapStateAdapter<Tuple, T> payloadMap(
            KeyedStateStore context, String name, TypeSerializer<T> payloads) {
        return new MapStateAdapter<>(
                context.getMapState(new MapStateDescriptor<>(name, TupleSerializer.INSTANCE, payloads)), name);
    }

    private static MapStateAdapter<Tuple, Tuple> tupleMap(KeyedStateStore context, String name) {
        return new MapStateAdapter<>(
                context.getMapState(new MapStateDescriptor<>(name, TupleSerializer.INSTANCE, TupleSerializer.INSTANCE)),
                name);
    }

    @Override
    public KeyValueState<Tuple, T> result() {
        return tracked == null ? result : tracked;
    }

    /**
     * Changelog: hands every result tuple of the current key whose payload changed since the last
     * trigger to {@code out}, then forgets the changes.
     */
    public void changes(Consumer<ResultChange<T>> out) {
        List<Map.Entry<Tuple, T>> changed = new ArrayList<>();
        before.entries().forEachRemaining(changed::add);
        tracked.changes(changed.iterator(), out);
        before.clear();
    }

    @Override
    public Iterator<Map.Entry<Tuple, T>> resultEntries() {
        return result.entries();
    }
}
