package io.flinkivm.flink.types;

import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.Tuple;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Serializer for {@link InputRecord}s. Format (version 2; 1 before the compact tuple format): a flags byte (snapshot request, then
 * which of relation, tuple, payload, origin are present, then two bits of the change kind's ordinal,
 * zero for an insert, so records written before change kinds read as inserts, then whether the row was
 * dropped by its table's filter, unset in records written before), then the present fields in that
 * order.
 */
@Internal
public final class InputRecordSerializer<T> extends PayloadRecordSerializer<InputRecord<T>, T> {
    private static final long serialVersionUID = 1L;

    private static final int SNAPSHOT_REQUEST = 1;
    private static final int RELATION = 2;
    private static final int TUPLE = 4;
    private static final int PAYLOAD = 8;
    private static final int ORIGIN = 16;
    private static final int KIND_SHIFT = 5;
    private static final int KIND_BITS = 3;
    private static final int DROPPED = 128;
    private static final int KNOWN = 255;
    private static final ChangeKind[] KINDS = ChangeKind.values();

    public InputRecordSerializer(TypeSerializer<T> payloadSerializer) {
        super(payloadSerializer);
    }

    @Override
    InputRecordSerializer<T> withPayloadSerializer(TypeSerializer<T> payloadSerializer) {
        return new InputRecordSerializer<>(payloadSerializer);
    }

    @Override
    public InputRecord<T> createInstance() {
        return InputRecord.snapshotRequest();
    }

    @Override
    public InputRecord<T> copy(InputRecord<T> from) {
        T payload = from.payload();
        T copy = copyPayload(payload);
        return copy == payload
                ? from
                : InputRecord.of(
                        from.isSnapshotRequest(),
                        from.relation(),
                        from.tuple(),
                        copy,
                        from.origin(),
                        from.kind(),
                        from.isDropped());
    }

    @Override
    public void serialize(InputRecord<T> record, DataOutputView out) throws IOException {
        String relation = record.relation();
        Tuple tuple = record.tuple();
        T payload = record.payload();
        String origin = record.origin();
        int flags = (record.isSnapshotRequest() ? SNAPSHOT_REQUEST : 0)
                | (relation != null ? RELATION : 0)
                | (tuple != null ? TUPLE : 0)
                | (payload != null ? PAYLOAD : 0)
                | (origin != null ? ORIGIN : 0)
                | (record.kind().ordinal() << KIND_SHIFT)
                | (record.isDropped() ? DROPPED : 0);
        out.writeByte(flags);
        if (relation != null) {
            StringValue.writeString(relation, out);
        }
        if (tuple != null) {
            TupleSerializer.INSTANCE.serialize(tuple, out);
        }
        if (payload != null) {
            payloadSerializer.serialize(payload, out);
        }
        if (origin != null) {
            StringValue.writeString(origin, out);
        }
    }

    @Override
    public InputRecord<T> deserialize(DataInputView in) throws IOException {
        int flags = checkDropped(checkFlags(in.readUnsignedByte(), KNOWN, "input record"));
        String relation = (flags & RELATION) != 0 ? StringValue.readString(in) : null;
        Tuple tuple = (flags & TUPLE) != 0 ? TupleSerializer.INSTANCE.deserialize(in) : null;
        T payload = (flags & PAYLOAD) != 0 ? payloadSerializer.deserialize(in) : null;
        String origin = (flags & ORIGIN) != 0 ? StringValue.readString(in) : null;
        return InputRecord.of(
                (flags & SNAPSHOT_REQUEST) != 0,
                relation,
                tuple,
                payload,
                origin,
                KINDS[(flags >>> KIND_SHIFT) & KIND_BITS],
                (flags & DROPPED) != 0);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        int flags = checkDropped(checkFlags(source.readUnsignedByte(), KNOWN, "input record"));
        target.writeByte(flags);
        if ((flags & RELATION) != 0) {
            StringValue.copyString(source, target);
        }
        if ((flags & TUPLE) != 0) {
            TupleSerializer.INSTANCE.copy(source, target);
        }
        if ((flags & PAYLOAD) != 0) {
            payloadSerializer.copy(source, target);
        }
        if ((flags & ORIGIN) != 0) {
            StringValue.copyString(source, target);
        }
    }

    /** Fails on a dropped row without relation, tuple and payload (every bit of the flags is in use). */
    private static int checkDropped(int flags) throws IOException {
        int row = RELATION | TUPLE | PAYLOAD;
        if ((flags & DROPPED) != 0 && ((flags & row) != row || (flags & SNAPSHOT_REQUEST) != 0)) {
            throw new IOException("corrupt input record data: a dropped row without relation, tuple or payload"
                    + " (flags 0x" + Integer.toHexString(flags) + ")");
        }
        return flags;
    }

    @Override
    public TypeSerializerSnapshot<InputRecord<T>> snapshotConfiguration() {
        return new InputRecordSerializerSnapshot<>(this);
    }

    /** Snapshot of an {@link InputRecordSerializer}: the nested payload serializer's snapshot. */
    public static final class InputRecordSerializerSnapshot<T>
            extends FormatCompositeSnapshot<InputRecord<T>, InputRecordSerializer<T>> {
        private static final int VERSION = 2;

        /** For reading a snapshot. */
        public InputRecordSerializerSnapshot() {}

        InputRecordSerializerSnapshot(InputRecordSerializer<T> serializer) {
            super(serializer);
        }

        @Override
        protected String what() {
            return "input record";
        }

        @Override
        protected int format() {
            return VERSION;
        }

        @Override
        protected TypeSerializer<?>[] getNestedSerializers(InputRecordSerializer<T> outer) {
            return new TypeSerializer<?>[] {outer.payloadSerializer};
        }

        @Override
        @SuppressWarnings("unchecked") // the nested serializers are the ones getNestedSerializers returned
        protected InputRecordSerializer<T> create(TypeSerializer<?>[] nested) {
            return new InputRecordSerializer<>((TypeSerializer<T>) nested[0]);
        }
    }
}
