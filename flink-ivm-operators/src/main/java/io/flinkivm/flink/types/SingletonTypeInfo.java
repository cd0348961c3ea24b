package io.flinkivm.flink.types;

import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/**
 * Type information with one instance per class and one stateless serializer: equal exactly to the
 * other instances of its own class (so a deserialized copy equals the singleton).
 */
abstract class SingletonTypeInfo<T> extends OpaqueTypeInfo<T> {
    private static final long serialVersionUID = 1L;

    private final TypeSerializer<T> serializer;
    private final String name;

    SingletonTypeInfo(Class<T> typeClass, TypeSerializer<T> serializer) {
        super(typeClass);
        this.serializer = serializer;
        this.name = typeClass.getSimpleName();
    }

    @Override
    public final TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer;
    }

    @Override
    public final String toString() {
        return name;
    }

    @Override
    public final boolean equals(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }

    @Override
    public final int hashCode() {
        return getClass().getName().hashCode();
    }

    @Override
    public final boolean canEqual(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }
}
