package io.flinkivm.flink.types;

import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Shared part of the type information of records that carry a payload of type {@code T}. */
abstract class PayloadRecordTypeInfo<R, T> extends OpaqueTypeInfo<R> {
    private static final long serialVersionUID = 1L;

    private final Class<R> typeClass;
    private final TypeInformation<T> payloadType;

    PayloadRecordTypeInfo(Class<R> typeClass, TypeInformation<T> payloadType) {
        super(typeClass);
        this.typeClass = typeClass;
        this.payloadType = Objects.requireNonNull(payloadType, "payloadType");
    }

    /** The type information of the payloads. */
    public final TypeInformation<T> payloadType() {
        return payloadType;
    }

    /** The record serializer around {@code payloadSerializer}. */
    abstract TypeSerializer<R> createSerializer(TypeSerializer<T> payloadSerializer);

    @Override
    public final TypeSerializer<R> createSerializer(SerializerConfig config) {
        return createSerializer(payloadType.createSerializer(config));
    }

    @Override
    public final Map<String, TypeInformation<?>> getGenericParameters() {
        return Map.of("T", payloadType);
    }

    @Override
    public final String toString() {
        return typeClass.getSimpleName() + "<" + payloadType + ">";
    }

    @Override
    public final boolean equals(Object obj) {
        return obj instanceof PayloadRecordTypeInfo<?, ?> other
                && other.canEqual(this)
                && payloadType.equals(other.payloadType);
    }

    @Override
    public final int hashCode() {
        return 31 * typeClass.getName().hashCode() + payloadType.hashCode();
    }

    @Override
    public final boolean canEqual(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }

    /** The raw class {@code c} as the class of a parameterised type: safe, classes are erased. */
    @SuppressWarnings("unchecked")
    static <R> Class<R> parameterised(Class<?> c) {
        return (Class<R>) c;
    }
}
