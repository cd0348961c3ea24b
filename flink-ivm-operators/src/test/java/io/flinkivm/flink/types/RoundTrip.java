package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Serialize, deserialize, and check that the byte-level copy yields the same bytes. */
final class RoundTrip {
    private RoundTrip() {}

    static <T> T of(TypeSerializer<T> serializer, T value) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(value, out);
        byte[] bytes = out.getCopyOfBuffer();
        DataOutputSerializer copied = new DataOutputSerializer(64);
        serializer.copy(new DataInputDeserializer(bytes), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(bytes);
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        T result = serializer.deserialize(in);
        assertThat(in.available()).isZero();
        return result;
    }
}
