package io.flinkivm.flink.border;

import io.flinkivm.core.engine.cyclic.BagJoinMaps;
import io.flinkivm.core.engine.maps.KeyValueState;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.common.KeyGroupStates;
import io.flinkivm.flink.common.MemoryMapCodec;
import io.flinkivm.flink.types.TupleSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.BooleanSerializer;
import org.apache.flink.api.common.typeutils.base.IntSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Makes the maps of the cyclic plan's bag indexes (core's {@link BagJoinMaps}) as {@link OpenHashMap}s
 * in an operator's own memory ({@link KeyGroupStates}), and writes and reads them all in the order
 * they were made, which the layout fixes.
 */
final class MemoryJoinMaps implements BagJoinMaps.MapFactory {
    private final Map<String, OpenHashMap<Tuple, ?>> made = new LinkedHashMap<>();
    private final List<TypeSerializer<?>> serializers = new ArrayList<>();

    private <V> OpenHashMap<Tuple, V> make(String name, TypeSerializer<V> values) {
        OpenHashMap<Tuple, V> m = new OpenHashMap<>();
        if (made.put(name, m) != null) {
            throw new IllegalStateException("state " + name + " made twice");
        }
        serializers.add(values);
        return m;
    }

    @Override
    public KeyValueState<Tuple, Tuple> tuples(String name) {
        return make(name, TupleSerializer.INSTANCE);
    }

    @Override
    public KeyValueState<Tuple, Integer> counts(String name) {
        return make(name, IntSerializer.INSTANCE);
    }

    @Override
    public KeyValueState<Tuple, Boolean> flags(String name) {
        return make(name, BooleanSerializer.INSTANCE);
    }

    /** Entries of the map {@code name}. */
    public long size(String name) {
        OpenHashMap<Tuple, ?> m = made.get(name);
        if (m == null) {
            throw new IllegalArgumentException("no state " + name + " was made");
        }
        return m.size();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public void write(DataOutputView out) throws IOException {
        int i = 0;
        for (OpenHashMap<Tuple, ?> m : made.values()) {
            MemoryMapCodec.write((OpenHashMap) m, (TypeSerializer) serializers.get(i++), out);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public void read(DataInputView in) throws IOException {
        int i = 0;
        for (OpenHashMap<Tuple, ?> m : made.values()) {
            MemoryMapCodec.read((OpenHashMap) m, (TypeSerializer) serializers.get(i++), in);
        }
    }
}
