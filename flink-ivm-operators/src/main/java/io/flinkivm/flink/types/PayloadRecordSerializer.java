package io.flinkivm.flink.types;

import java.io.IOException;
import java.util.Objects;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;

/**
 * Shared part of the serializers of records that carry a payload of type {@code T}: the nested
 * payload serializer decides mutability, duplication and equality.
 */
abstract class PayloadRecordSerializer<R, T> extends TypeSerializer<R> {
    private static final long serialVersionUID = 1L;

    final TypeSerializer<T> payloadSerializer;

    PayloadRecordSerializer(TypeSerializer<T> payloadSerializer) {
        this.payloadSerializer = Objects.requireNonNull(payloadSerializer, "payloadSerializer");
    }

    /** The nested payload serializer. */
    public final TypeSerializer<T> payloadSerializer() {
        return payloadSerializer;
    }

    /** The same serializer around another payload serializer. */
    abstract PayloadRecordSerializer<R, T> withPayloadSerializer(TypeSerializer<T> payloadSerializer);

    /** A copy of {@code payload} that shares no mutable state with it (null stays null). */
    final T copyPayload(T payload) {
        return payload == null || payloadSerializer.isImmutableType() ? payload : payloadSerializer.copy(payload);
    }

    @Override
    public final boolean isImmutableType() {
        return payloadSerializer.isImmutableType();
    }

    @Override
    public final TypeSerializer<R> duplicate() {
        TypeSerializer<T> d = payloadSerializer.duplicate();
        return d == payloadSerializer ? this : withPayloadSerializer(d);
    }

    @Override
    public final R copy(R from, R reuse) {
        return copy(from);
    }

    @Override
    public final int getLength() {
        return -1;
    }

    @Override
    public final R deserialize(R reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public final boolean equals(Object obj) {
        return obj != null
                && obj.getClass() == getClass()
                && payloadSerializer.equals(((PayloadRecordSerializer<?, ?>) obj).payloadSerializer);
    }

    @Override
    public final int hashCode() {
        return 31 * getClass().getName().hashCode() + payloadSerializer.hashCode();
    }

    @Override
    public final String toString() {
        return getClass().getSimpleName() + "<" + payloadSerializer + ">";
    }

    /** Fails on flag bits outside {@code known}. */
    static int checkFlags(int flags, int known, String what) throws IOException {
        if ((flags & ~known) != 0) {
            throw new IOException("corrupt " + what + " data: unknown flags 0x" + Integer.toHexString(flags & ~known));
        }
        return flags;
    }
}
