package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Serializer for {@link Delta}s. Format (version 4, of tuple format 5; 2 before the compact tuple format): epoch, atom and insert id (var-ints), a flags
 * byte (which of key, payload and partition are present, whether it is a checked delete and whether
 * it reports a rejection), then the present key, payload and partition, and the origin and row of a
 * delta that reports.
 */
@Internal
public final class DeltaSerializer<T> extends PayloadRecordSerializer<Delta<T>, T> {
    private static final long serialVersionUID = 1L;

    private static final int KEY = 1;
    private static final int PAYLOAD = 2;
    private static final int PARTITION = 4;
    private static final int DELETE = 8;
    private static final int REPORT = 16;
    private static final int KNOWN = 31;

    public DeltaSerializer(TypeSerializer<T> payloadSerializer) {
        super(payloadSerializer);
    }

    @Override
    DeltaSerializer<T> withPayloadSerializer(TypeSerializer<T> payloadSerializer) {
        return new DeltaSerializer<>(payloadSerializer);
    }

    @Override
    public Delta<T> createInstance() {
        return new Delta<>(0, 0, Tuple.EMPTY, payloadSerializer.createInstance(), 0, null);
    }

    @Override
    public Delta<T> copy(Delta<T> from) {
        T payload = from.payload();
        T copy = copyPayload(payload);
        return copy == payload ? from : from.withPayload(copy);
    }

    @Override
    public void serialize(Delta<T> delta, DataOutputView out) throws IOException {
        Tuple key = delta.key();
        T payload = delta.payload();
        Tuple partition = delta.partition();
        VarInts.writeLong(delta.epoch(), out);
        VarInts.write(delta.atom(), out);
        VarInts.writeLong(delta.insert(), out);
        String origin = delta.reportAs();
        out.writeByte((key != null ? KEY : 0)
                | (payload != null ? PAYLOAD : 0)
                | (partition != null ? PARTITION : 0)
                | (delta.isDelete() ? DELETE : 0)
                | (origin != null ? REPORT : 0));
        if (key != null) {
            TupleSerializer.INSTANCE.serialize(key, out);
        }
        if (payload != null) {
            payloadSerializer.serialize(payload, out);
        }
        if (partition != null) {
            TupleSerializer.INSTANCE.serialize(partition, out);
        }
        if (origin != null) {
            StringValue.writeString(origin, out);
            TupleSerializer.INSTANCE.serialize(delta.row(), out);
        }
    }

    @Override
    public Delta<T> deserialize(DataInputView in) throws IOException {
        long epoch = VarInts.readLong(in);
        int atom = VarInts.read(in);
        long insert = VarInts.readLong(in);
        int flags = checkFlags(in.readUnsignedByte(), KNOWN, "delta");
        Tuple key = (flags & KEY) != 0 ? TupleSerializer.INSTANCE.deserialize(in) : null;
        T payload = (flags & PAYLOAD) != 0 ? payloadSerializer.deserialize(in) : null;
        Tuple partition = (flags & PARTITION) != 0 ? TupleSerializer.INSTANCE.deserialize(in) : null;
        String origin = null;
        Tuple row = null;
        if ((flags & REPORT) != 0) {
            origin = StringValue.readString(in);
            row = TupleSerializer.INSTANCE.deserialize(in);
        }
        return new Delta<>(epoch, atom, key, payload, insert, partition, (flags & DELETE) != 0, origin, row);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        VarInts.writeLong(VarInts.readLong(source), target);
        VarInts.copy(source, target);
        VarInts.writeLong(VarInts.readLong(source), target);
        int flags = checkFlags(source.readUnsignedByte(), KNOWN, "delta");
        target.writeByte(flags);
        if ((flags & KEY) != 0) {
            TupleSerializer.INSTANCE.copy(source, target);
        }
        if ((flags & PAYLOAD) != 0) {
            payloadSerializer.copy(source, target);
        }
        if ((flags & PARTITION) != 0) {
            TupleSerializer.INSTANCE.copy(source, target);
        }
        if ((flags & REPORT) != 0) {
            StringValue.copyString(source, target);
            TupleSerializer.INSTANCE.copy(source, target);
        }
    }

    @Override
    public TypeSerializerSnapshot<Delta<T>> snapshotConfiguration() {
        return new DeltaSerializerSnapshot<>(this);
    }

    /** Snapshot of a {@link DeltaSerializer}: the nested payload serializer's snapshot. */
    public static final class DeltaSerializerSnapshot<T> extends FormatCompositeSnapshot<Delta<T>, DeltaSerializer<T>> {
        /** 4 since its tuples are of tuple format 5 ({@link TupleSerializer#TYPED_VALUES}). */
        private static final int VERSION = 4;

        /** For reading a snapshot. */
        public DeltaSerializerSnapshot() {}

        DeltaSerializerSnapshot(DeltaSerializer<T> serializer) {
            super(serializer);
        }

        @Override
        protected String what() {
            return "delta";
        }

        @Override
        protected int format() {
            return VERSION;
        }

        @Override
        protected String change() {
            return TupleSerializer.TYPED_VALUES;
        }

        @Override
        protected TypeSerializer<?>[] getNestedSerializers(DeltaSerializer<T> outer) {
            return new TypeSerializer<?>[] {outer.payloadSerializer};
        }

        @Override
        @SuppressWarnings("unchecked") // the nested serializers are the ones getNestedSerializers returned
        protected DeltaSerializer<T> create(TypeSerializer<?>[] nested) {
            return new DeltaSerializer<>((TypeSerializer<T>) nested[0]);
        }
    }
}
