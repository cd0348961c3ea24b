package io.flinkivm.flink.types;

import io.flinkivm.core.engine.keys.KeyRow;
import io.flinkivm.core.query.Tuple;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for a key stage's {@link KeyRow}: the row stored under a key value, with its payload, or
 * the mark of a dropped row. Format (version 1): a flags byte (whether the row is a dropped row's
 * mark), the row's values, then, for a kept row, its payload. Before it (flink-ivm's key stages
 * without payloads and marks) the state held the values alone, with the tuple serializer: Flink
 * refuses such state as incompatible with this serializer.
 */
@Internal
public final class KeyRowSerializer<T> extends PayloadRecordSerializer<KeyRow<T>, T> {
    private static final long serialVersionUID = 1L;

    private static final int DROPPED = 1;
    private static final int KNOWN = DROPPED;

    public KeyRowSerializer(TypeSerializer<T> payloadSerializer) {
        super(payloadSerializer);
    }

    @Override
    KeyRowSerializer<T> withPayloadSerializer(TypeSerializer<T> payloadSerializer) {
        return new KeyRowSerializer<>(payloadSerializer);
    }

    @Override
    public KeyRow<T> createInstance() {
        return KeyRow.droppedRow(Tuple.EMPTY);
    }

    @Override
    public KeyRow<T> copy(KeyRow<T> from) {
        T payload = from.payload();
        T copy = copyPayload(payload);
        return copy == payload ? from : KeyRow.kept(from.values(), copy);
    }

    @Override
    public void serialize(KeyRow<T> row, DataOutputView out) throws IOException {
        out.writeByte(row.dropped() ? DROPPED : 0);
        TupleSerializer.INSTANCE.serialize(row.values(), out);
        if (!row.dropped()) {
            payloadSerializer.serialize(row.payload(), out);
        }
    }

    @Override
    public KeyRow<T> deserialize(DataInputView in) throws IOException {
        int flags = checkFlags(in.readUnsignedByte(), KNOWN, "key row");
        Tuple values = TupleSerializer.INSTANCE.deserialize(in);
        return (flags & DROPPED) != 0
                ? KeyRow.droppedRow(values)
                : KeyRow.kept(values, payloadSerializer.deserialize(in));
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        int flags = checkFlags(source.readUnsignedByte(), KNOWN, "key row");
        target.writeByte(flags);
        TupleSerializer.INSTANCE.copy(source, target);
        if ((flags & DROPPED) == 0) {
            payloadSerializer.copy(source, target);
        }
    }

    @Override
    public TypeSerializerSnapshot<KeyRow<T>> snapshotConfiguration() {
        return new KeyRowSerializerSnapshot<>(this);
    }

    /** Snapshot of a {@link KeyRowSerializer}: the nested payload serializer's snapshot. */
    public static final class KeyRowSerializerSnapshot<T>
            extends FormatCompositeSnapshot<KeyRow<T>, KeyRowSerializer<T>> {
        private static final int VERSION = 1;

        /** For reading a snapshot. */
        public KeyRowSerializerSnapshot() {}

        KeyRowSerializerSnapshot(KeyRowSerializer<T> serializer) {
            super(serializer);
        }

        @Override
        protected String what() {
            return "key row";
        }

        @Override
        protected int format() {
            return VERSION;
        }

        @Override
        protected TypeSerializer<?>[] getNestedSerializers(KeyRowSerializer<T> outer) {
            return new TypeSerializer<?>[] {outer.payloadSerializer};
        }

        @Override
        @SuppressWarnings("unchecked") // the nested serializers are the ones getNestedSerializers returned
        protected KeyRowSerializer<T> create(TypeSerializer<?>[] nested) {
            return new KeyRowSerializer<>((TypeSerializer<T>) nested[0]);
        }
    }
}
