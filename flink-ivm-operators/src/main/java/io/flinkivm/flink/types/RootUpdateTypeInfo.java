package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.Semiring;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information for {@link RootUpdate}s with payloads of type {@code T}. */
@Internal
public final class RootUpdateTypeInfo<T> extends PayloadRecordTypeInfo<RootUpdate<T>, T> {
    private static final long serialVersionUID = 1L;

    public RootUpdateTypeInfo(TypeInformation<T> payloadType) {
        super(parameterised(RootUpdate.class), payloadType);
    }

    /** For the payloads of {@code semiring} (see {@link PayloadTypes#of}). */
    public static <T> RootUpdateTypeInfo<T> of(Semiring<T> semiring) {
        return new RootUpdateTypeInfo<>(PayloadTypes.of(semiring));
    }

    @Override
    TypeSerializer<RootUpdate<T>> createSerializer(TypeSerializer<T> payloadSerializer) {
        return new RootUpdateSerializer<>(payloadSerializer);
    }
}
