package io.flinkivm.flink.types;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Serializer for {@link DeadLetter}s. Format (version 1): origin, reason and record as
 * {@link StringValue} strings (a dead letter's fields are never null).
 */
@Internal
public final class DeadLetterSerializer extends TypeSerializerSingleton<DeadLetter> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final DeadLetterSerializer INSTANCE = new DeadLetterSerializer();

    private static final DeadLetter EMPTY = new DeadLetter(null, "", null);

    private DeadLetterSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public DeadLetter createInstance() {
        return EMPTY;
    }

    @Override
    public DeadLetter copy(DeadLetter from) {
        return from;
    }

    @Override
    public DeadLetter copy(DeadLetter from, DeadLetter reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(DeadLetter letter, DataOutputView out) throws IOException {
        StringValue.writeString(letter.origin(), out);
        StringValue.writeString(letter.reason(), out);
        StringValue.writeString(letter.record(), out);
    }

    @Override
    public DeadLetter deserialize(DataInputView in) throws IOException {
        String origin = StringValue.readString(in);
        String reason = StringValue.readString(in);
        String record = StringValue.readString(in);
        if (reason == null) {
            throw new IOException("corrupt dead letter data: no reason");
        }
        return new DeadLetter(origin, reason, record);
    }

    @Override
    public DeadLetter deserialize(DeadLetter reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        StringValue.copyString(source, target);
        StringValue.copyString(source, target);
        StringValue.copyString(source, target);
    }

    @Override
    public TypeSerializerSnapshot<DeadLetter> snapshotConfiguration() {
        return new DeadLetterSerializerSnapshot();
    }

    /** Snapshot of the (configuration-free) {@link DeadLetterSerializer}. */
    public static final class DeadLetterSerializerSnapshot extends SimpleTypeSerializerSnapshot<DeadLetter> {
        public DeadLetterSerializerSnapshot() {
            super(() -> INSTANCE);
        }
    }
}
