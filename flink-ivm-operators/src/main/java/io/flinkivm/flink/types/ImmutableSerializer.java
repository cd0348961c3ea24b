package io.flinkivm.flink.types;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputView;

/**
 * Shared part of the serializers of immutable values of variable length (the product payloads): a
 * copy is the value itself, the serializer has no state to duplicate, a reused value is ignored.
 */
abstract class ImmutableSerializer<T> extends TypeSerializer<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public final boolean isImmutableType() {
        return true;
    }

    @Override
    public final TypeSerializer<T> duplicate() {
        return this;
    }

    @Override
    public final T copy(T from) {
        return from;
    }

    @Override
    public final T copy(T from, T reuse) {
        return from;
    }

    @Override
    public final int getLength() {
        return -1;
    }

    @Override
    public final T deserialize(T reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }
}
