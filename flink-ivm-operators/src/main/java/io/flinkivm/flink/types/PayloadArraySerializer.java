package io.flinkivm.flink.types;

import java.io.IOException;
import java.util.Objects;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.CompositeTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for a join view's child payloads at one key: an array of payloads, each possibly null
 * (no payload yet). Format (version 1): the length as a var-int, a bit mask of the present elements
 * (one byte per 8), then the present payloads. Copies are new arrays (the heap state backend copies
 * values on write while a snapshot reads them).
 */
@Internal
public final class PayloadArraySerializer<T> extends TypeSerializer<Object[]> {
    private static final long serialVersionUID = 1L;

    private final TypeSerializer<T> payloadSerializer;

    public PayloadArraySerializer(TypeSerializer<T> payloadSerializer) {
        this.payloadSerializer = Objects.requireNonNull(payloadSerializer, "payloadSerializer");
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<Object[]> duplicate() {
        TypeSerializer<T> d = payloadSerializer.duplicate();
        return d == payloadSerializer ? this : new PayloadArraySerializer<>(d);
    }

    @Override
    public Object[] createInstance() {
        return new Object[0];
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object[] copy(Object[] from) {
        Object[] out = from.clone();
        if (!payloadSerializer.isImmutableType()) {
            for (int i = 0; i < out.length; i++) {
                if (out[i] != null) {
                    out[i] = payloadSerializer.copy((T) out[i]);
                }
            }
        }
        return out;
    }

    @Override
    public Object[] copy(Object[] from, Object[] reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void serialize(Object[] record, DataOutputView out) throws IOException {
        VarInts.write(record.length, out);
        for (int base = 0; base < record.length; base += 8) {
            int mask = 0;
            for (int i = base; i < Math.min(base + 8, record.length); i++) {
                if (record[i] != null) {
                    mask |= 1 << (i - base);
                }
            }
            out.writeByte(mask);
        }
        for (Object p : record) {
            if (p != null) {
                payloadSerializer.serialize((T) p, out);
            }
        }
    }

    @Override
    public Object[] deserialize(DataInputView in) throws IOException {
        int length = VarInts.read(in);
        boolean[] present = readMask(in, length);
        Object[] out = new Object[length];
        for (int i = 0; i < length; i++) {
            if (present[i]) {
                out[i] = payloadSerializer.deserialize(in);
            }
        }
        return out;
    }

    private static boolean[] readMask(DataInputView in, int length) throws IOException {
        boolean[] present = new boolean[length];
        for (int base = 0; base < length; base += 8) {
            int mask = in.readUnsignedByte();
            for (int i = base; i < Math.min(base + 8, length); i++) {
                present[i] = (mask & (1 << (i - base))) != 0;
            }
        }
        return present;
    }

    @Override
    public Object[] deserialize(Object[] reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        int length = VarInts.copy(source, target);
        boolean[] present = readMask(source, length);
        for (int base = 0; base < length; base += 8) {
            int mask = 0;
            for (int i = base; i < Math.min(base + 8, length); i++) {
                mask |= present[i] ? 1 << (i - base) : 0;
            }
            target.writeByte(mask);
        }
        for (boolean p : present) {
            if (p) {
                payloadSerializer.copy(source, target);
            }
        }
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof PayloadArraySerializer<?> other && payloadSerializer.equals(other.payloadSerializer);
    }

    @Override
    public int hashCode() {
        return 31 * PayloadArraySerializer.class.getName().hashCode() + payloadSerializer.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<Object[]> snapshotConfiguration() {
        return new PayloadArraySerializerSnapshot<>(this);
    }

    /** Snapshot of a {@link PayloadArraySerializer}: the nested payload serializer's snapshot. */
    public static final class PayloadArraySerializerSnapshot<T>
            extends CompositeTypeSerializerSnapshot<Object[], PayloadArraySerializer<T>> {
        private static final int VERSION = 1;

        /** For reading a snapshot. */
        public PayloadArraySerializerSnapshot() {}

        PayloadArraySerializerSnapshot(PayloadArraySerializer<T> serializer) {
            super(serializer);
        }

        @Override
        protected int getCurrentOuterSnapshotVersion() {
            return VERSION;
        }

        @Override
        protected TypeSerializer<?>[] getNestedSerializers(PayloadArraySerializer<T> outer) {
            return new TypeSerializer<?>[] {outer.payloadSerializer};
        }

        @Override
        @SuppressWarnings("unchecked") // the nested serializers are the ones getNestedSerializers returned
        protected PayloadArraySerializer<T> createOuterSerializerWithNestedSerializers(TypeSerializer<?>[] nested) {
            return new PayloadArraySerializer<>((TypeSerializer<T>) nested[0]);
        }
    }
}
