package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.Semiring;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information for {@link InputRecord}s with payloads of type {@code T}. */
@Internal
public final class InputRecordTypeInfo<T> extends PayloadRecordTypeInfo<InputRecord<T>, T> {
    private static final long serialVersionUID = 1L;

    public InputRecordTypeInfo(TypeInformation<T> payloadType) {
        super(parameterised(InputRecord.class), payloadType);
    }

    /** For the payloads of {@code semiring} (see {@link PayloadTypes#of}). */
    public static <T> InputRecordTypeInfo<T> of(Semiring<T> semiring) {
        return new InputRecordTypeInfo<>(PayloadTypes.of(semiring));
    }

    @Override
    TypeSerializer<InputRecord<T>> createSerializer(TypeSerializer<T> payloadSerializer) {
        return new InputRecordSerializer<>(payloadSerializer);
    }
}
