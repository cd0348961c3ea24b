package io.flinkivm.flink.types;

import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.semiring.Semiring;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Type information for {@link StageRow}s with payloads of type {@code T}. */
@Internal
public final class StageRowTypeInfo<T> extends PayloadRecordTypeInfo<StageRow<T>, T> {
    private static final long serialVersionUID = 1L;

    public StageRowTypeInfo(TypeInformation<T> payloadType) {
        super(parameterised(StageRow.class), payloadType);
    }

    /** For the payloads of {@code semiring} (see {@link PayloadTypes#of}). */
    public static <T> StageRowTypeInfo<T> of(Semiring<T> semiring) {
        return new StageRowTypeInfo<>(PayloadTypes.of(semiring));
    }

    @Override
    TypeSerializer<StageRow<T>> createSerializer(TypeSerializer<T> payloadSerializer) {
        return new StageRowSerializer<>(payloadSerializer);
    }
}
