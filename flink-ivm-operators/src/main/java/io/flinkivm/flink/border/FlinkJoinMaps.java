package io.flinkivm.flink.border;

import io.flinkivm.core.engine.cyclic.BagJoinMaps;
import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.common.MapStateAdapter;
import io.flinkivm.flink.types.TupleTypeInfo;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * Makes the maps of the cyclic plan's bag indexes (core's {@link BagJoinMaps}) as keyed {@code MapState}s
 * named as core names them; so the acyclic Boolean join and the cyclic plan's bags run in the
 * border sink on the same per-node logic as in memory. Create it in {@code initializeState} of a keyed operator.
 */
final class FlinkJoinMaps implements BagJoinMaps.MapFactory {
    private final KeyedStateStore context;
    private final Map<String, MapStateAdapter<Tuple, ?>> made = new LinkedHashMap<>();

    public FlinkJoinMaps(KeyedStateStore context) {
        this.context = context;
    }

    private <V> MapStateAdapter<Tuple, V> make(String name, TypeInformation<V> valueType) {
        MapStateAdapter<Tuple, V> m = new MapStateAdapter<>(
                context.getMapState(new MapStateDescriptor<>(name, TupleTypeInfo.INSTANCE, valueType)), name);
        if (made.put(name, m) != null) {
            throw new IllegalStateException("state " + name + " made twice");
        }
        return m;
    }

    @Override
    public KeyValueState<Tuple, Tuple> tuples(String name) {
        return make(name, TupleTypeInfo.INSTANCE);
    }

    @Override
    public KeyValueState<Tuple, Integer> counts(String name) {
        return make(name, Types.INT);
    }

    @Override
    public KeyValueState<Tuple, Boolean> flags(String name) {
        return make(name, Types.BOOLEAN);
    }

    /** Number of entries under the current key of the map named {@code name}. */
    public long size(String name) {
        MapStateAdapter<Tuple, ?> m = made.get(name);
        if (m == null) {
            throw new IllegalArgumentException("no state " + name + " was made");
        }
        long n = 0;
        for (Iterator<? extends Map.Entry<Tuple, ?>> it = m.entries(); it.hasNext(); it.next()) {
            n++;
        }
        return n;
    }
}
