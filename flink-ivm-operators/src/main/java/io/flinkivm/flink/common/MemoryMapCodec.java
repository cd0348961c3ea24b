package io.flinkivm.flink.common;

import io.flinkivm.core.engine.maps.LongCell;
import io.flinkivm.core.engine.maps.OpenHashMap;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.types.TupleSerializer;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * How the maps of flink-ivm's in-memory operator state ({@link KeyGroupStates}) are written: the
 * number of keys, then each key ({@link TupleSerializer}) with its value, or with its value slots
 * for a map of several slots per key (a presence bit mask, one byte per eight slots, then the present
 * values).
 */
@Internal
public final class MemoryMapCodec {
    private MemoryMapCodec() {}

    public static <V> void write(OpenHashMap<Tuple, V> map, TypeSerializer<V> values, DataOutputView out)
            throws IOException {
        out.writeInt(map.size());
        for (Iterator<Map.Entry<Tuple, V>> it = map.entries(); it.hasNext(); ) {
            Map.Entry<Tuple, V> e = it.next();
            TupleSerializer.INSTANCE.serialize(e.getKey(), out);
            values.serialize(e.getValue(), out);
        }
    }

    public static <V> void read(OpenHashMap<Tuple, V> map, TypeSerializer<V> values, DataInputView in)
            throws IOException {
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            Tuple key = TupleSerializer.INSTANCE.deserialize(in);
            map.put(key, values.deserialize(in));
        }
    }

    /** A map of {@link OpenHashMap#width()} slots per key, each slot's payload or null. */
    @SuppressWarnings("unchecked")
    public static <T> void writeWide(OpenHashMap<Tuple, Object> map, TypeSerializer<T> payloads, DataOutputView out)
            throws IOException {
        out.writeInt(map.size());
        Object[] slots = map.slots();
        int width = map.width();
        for (int i = 0; i < map.capacity(); i++) {
            Tuple key = map.keyAt(i);
            if (key == null) {
                continue;
            }
            TupleSerializer.INSTANCE.serialize(key, out);
            int base = map.base(i);
            for (int from = 0; from < width; from += 8) {
                int mask = 0;
                for (int s = from; s < Math.min(from + 8, width); s++) {
                    mask |= slots[base + s] != null ? 1 << (s - from) : 0;
                }
                out.writeByte(mask);
            }
            for (int s = 0; s < width; s++) {
                Object p = LongCell.boxed(slots[base + s]);
                if (p != null) {
                    payloads.serialize((T) p, out);
                }
            }
        }
    }

    public static <T> void readWide(OpenHashMap<Tuple, Object> map, TypeSerializer<T> payloads, DataInputView in)
            throws IOException {
        int n = in.readInt();
        int width = map.width();
        for (int i = 0; i < n; i++) {
            int e = map.addEntry(TupleSerializer.INSTANCE.deserialize(in));
            int base = map.base(e);
            boolean[] present = new boolean[width];
            for (int from = 0; from < width; from += 8) {
                int mask = in.readUnsignedByte();
                for (int s = from; s < Math.min(from + 8, width); s++) {
                    present[s] = (mask & 1 << (s - from)) != 0;
                }
            }
            for (int s = 0; s < width; s++) {
                if (present[s]) {
                    map.slots()[base + s] = payloads.deserialize(in);
                }
            }
        }
    }
}
