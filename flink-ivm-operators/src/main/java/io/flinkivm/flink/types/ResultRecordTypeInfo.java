package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.Semiring;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information for {@link ResultRecord}s with payloads of type {@code T}. */
@Internal
public final class ResultRecordTypeInfo<T> extends PayloadRecordTypeInfo<ResultRecord<T>, T> {
    private static final long serialVersionUID = 1L;

    public ResultRecordTypeInfo(TypeInformation<T> payloadType) {
        super(parameterised(ResultRecord.class), payloadType);
    }

    /** For the payloads of {@code semiring} (see {@link PayloadTypes#of}). */
    public static <T> ResultRecordTypeInfo<T> of(Semiring<T> semiring) {
        return new ResultRecordTypeInfo<>(PayloadTypes.of(semiring));
    }

    @Override
    TypeSerializer<ResultRecord<T>> createSerializer(TypeSerializer<T> payloadSerializer) {
        return new ResultRecordSerializer<>(payloadSerializer);
    }
}
