package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.Semiring;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information for {@link Delta}s with payloads of type {@code T}. */
@Internal
public final class DeltaTypeInfo<T> extends PayloadRecordTypeInfo<Delta<T>, T> {
    private static final long serialVersionUID = 1L;

    public DeltaTypeInfo(TypeInformation<T> payloadType) {
        super(parameterised(Delta.class), payloadType);
    }

    /** For the payloads of {@code semiring} (see {@link PayloadTypes#of}). */
    public static <T> DeltaTypeInfo<T> of(Semiring<T> semiring) {
        return new DeltaTypeInfo<>(PayloadTypes.of(semiring));
    }

    @Override
    TypeSerializer<Delta<T>> createSerializer(TypeSerializer<T> payloadSerializer) {
        return new DeltaSerializer<>(payloadSerializer);
    }
}
