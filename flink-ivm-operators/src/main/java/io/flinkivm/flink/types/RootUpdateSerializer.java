package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.flink.runtime.RootUpdate;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.CompositeTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for {@link RootUpdate}s. Format (version 1): the tree (int), a flags byte (is-new, then
 * which of tuple and payload are present), then the present tuple and payload.
 */
public final class RootUpdateSerializer<T> extends PayloadRecordSerializer<RootUpdate<T>, T> {
    private static final long serialVersionUID = 1L;

    private static final int NEW = 1;
    private static final int TUPLE = 2;
    private static final int PAYLOAD = 4;
    private static final int KNOWN = 7;

    public RootUpdateSerializer(TypeSerializer<T> payloadSerializer) {
        super(payloadSerializer);
    }

    @Override
    RootUpdateSerializer<T> withPayloadSerializer(TypeSerializer<T> payloadSerializer) {
        return new RootUpdateSerializer<>(payloadSerializer);
    }

    @Override
    public RootUpdate<T> createInstance() {
        return new RootUpdate<>(0, Tuple.EMPTY, payloadSerializer.createInstance(), false);
    }

    @Override
    public RootUpdate<T> copy(RootUpdate<T> from) {
        T payload = from.payload();
        T copy = copyPayload(payload);
        return copy == payload ? from : new RootUpdate<>(from.tree(), from.tuple(), copy, from.isNew());
    }

    @Override
    public void serialize(RootUpdate<T> update, DataOutputView out) throws IOException {
        Tuple tuple = update.tuple();
        T payload = update.payload();
        out.writeInt(update.tree());
        out.writeByte((update.isNew() ? NEW : 0) | (tuple != null ? TUPLE : 0) | (payload != null ? PAYLOAD : 0));
        if (tuple != null) {
            TupleSerializer.INSTANCE.serialize(tuple, out);
        }
        if (payload != null) {
            payloadSerializer.serialize(payload, out);
        }
    }

    @Override
    public RootUpdate<T> deserialize(DataInputView in) throws IOException {
        int tree = in.readInt();
        int flags = checkFlags(in.readUnsignedByte(), KNOWN, "root update");
        Tuple tuple = (flags & TUPLE) != 0 ? TupleSerializer.INSTANCE.deserialize(in) : null;
        T payload = (flags & PAYLOAD) != 0 ? payloadSerializer.deserialize(in) : null;
        return new RootUpdate<>(tree, tuple, payload, (flags & NEW) != 0);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        target.writeInt(source.readInt());
        int flags = checkFlags(source.readUnsignedByte(), KNOWN, "root update");
        target.writeByte(flags);
        if ((flags & TUPLE) != 0) {
            TupleSerializer.INSTANCE.copy(source, target);
        }
        if ((flags & PAYLOAD) != 0) {
            payloadSerializer.copy(source, target);
        }
    }

    @Override
    public TypeSerializerSnapshot<RootUpdate<T>> snapshotConfiguration() {
        return new RootUpdateSerializerSnapshot<>(this);
    }

    /** Snapshot of a {@link RootUpdateSerializer}: the nested payload serializer's snapshot. */
    public static final class RootUpdateSerializerSnapshot<T>
            extends CompositeTypeSerializerSnapshot<RootUpdate<T>, RootUpdateSerializer<T>> {
        private static final int VERSION = 1;

        /** For reading a snapshot. */
        public RootUpdateSerializerSnapshot() {}

        RootUpdateSerializerSnapshot(RootUpdateSerializer<T> serializer) {
            super(serializer);
        }

        @Override
        protected int getCurrentOuterSnapshotVersion() {
            return VERSION;
        }

        @Override
        protected TypeSerializer<?>[] getNestedSerializers(RootUpdateSerializer<T> outer) {
            return new TypeSerializer<?>[] {outer.payloadSerializer};
        }

        @Override
        @SuppressWarnings("unchecked") // the nested serializers are the ones getNestedSerializers returned
        protected RootUpdateSerializer<T> createOuterSerializerWithNestedSerializers(TypeSerializer<?>[] nested) {
            return new RootUpdateSerializer<>((TypeSerializer<T>) nested[0]);
        }
    }
}
