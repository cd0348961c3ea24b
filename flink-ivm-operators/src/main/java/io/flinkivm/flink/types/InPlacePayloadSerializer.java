package io.flinkivm.flink.types;

import io.flinkivm.core.semiring.InPlaceSum;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A payload serializer that also writes and reads a payload kept as the longs of its semiring's sum in
 * place ({@link InPlaceSum}), in the very bytes of the payload: a record that keeps its payload so is
 * read and written without a payload object ({@link JoinRecordSerializer}).
 *
 * @param <T> the payload type
 */
@Internal
public interface InPlacePayloadSerializer<T> {

    /** The semiring's sum in place, or null if its payloads are not kept as longs. */
    InPlaceSum<T> inPlaceSum();

    /** Writes the payload whose longs are {@code longs}, as the payload serializer writes it. */
    void serializeLongs(long[] longs, DataOutputView out) throws IOException;

    /** Reads a payload as its longs (checked as the payload serializer checks a payload it reads). */
    long[] deserializeLongs(DataInputView in) throws IOException;
}
