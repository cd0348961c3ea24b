package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for {@link RootUpdate}s. Format (version 5, of tuple format 5; 3 before the compact tuple format): epoch and tree (var-ints), a flags byte
 * (which of tuple, payload and cell are present), then the present tuple, payload and cell.
 */
@Internal
public final class RootUpdateSerializer<T> extends PayloadRecordSerializer<RootUpdate<T>, T> {
    private static final long serialVersionUID = 1L;

    private static final int TUPLE = 2;
    private static final int PAYLOAD = 4;
    private static final int CELL = 16;
    private static final int KNOWN = TUPLE | PAYLOAD | CELL;

    public RootUpdateSerializer(TypeSerializer<T> payloadSerializer) {
        super(payloadSerializer);
    }

    @Override
    RootUpdateSerializer<T> withPayloadSerializer(TypeSerializer<T> payloadSerializer) {
        return new RootUpdateSerializer<>(payloadSerializer);
    }

    @Override
    public RootUpdate<T> createInstance() {
        return new RootUpdate<>(0, 0, Tuple.EMPTY, payloadSerializer.createInstance(), null);
    }

    @Override
    public RootUpdate<T> copy(RootUpdate<T> from) {
        T payload = from.payload();
        T copy = copyPayload(payload);
        return copy == payload ? from : new RootUpdate<>(from.epoch(), from.tree(), from.tuple(), copy, from.cell());
    }

    @Override
    public void serialize(RootUpdate<T> update, DataOutputView out) throws IOException {
        Tuple tuple = update.tuple();
        T payload = update.payload();
        Tuple cell = update.cell();
        VarInts.writeLong(update.epoch(), out);
        VarInts.write(update.tree(), out);
        out.writeByte((tuple != null ? TUPLE : 0) | (payload != null ? PAYLOAD : 0) | (cell != null ? CELL : 0));
        if (tuple != null) {
            TupleSerializer.INSTANCE.serialize(tuple, out);
        }
        if (payload != null) {
            payloadSerializer.serialize(payload, out);
        }
        if (cell != null) {
            TupleSerializer.INSTANCE.serialize(cell, out);
        }
    }

    @Override
    public RootUpdate<T> deserialize(DataInputView in) throws IOException {
        long epoch = VarInts.readLong(in);
        int tree = VarInts.read(in);
        int flags = checkFlags(in.readUnsignedByte(), KNOWN, "root update");
        Tuple tuple = (flags & TUPLE) != 0 ? TupleSerializer.INSTANCE.deserialize(in) : null;
        T payload = (flags & PAYLOAD) != 0 ? payloadSerializer.deserialize(in) : null;
        Tuple cell = (flags & CELL) != 0 ? TupleSerializer.INSTANCE.deserialize(in) : null;
        return new RootUpdate<>(epoch, tree, tuple, payload, cell);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        VarInts.writeLong(VarInts.readLong(source), target);
        VarInts.copy(source, target);
        int flags = checkFlags(source.readUnsignedByte(), KNOWN, "root update");
        target.writeByte(flags);
        if ((flags & TUPLE) != 0) {
            TupleSerializer.INSTANCE.copy(source, target);
        }
        if ((flags & PAYLOAD) != 0) {
            payloadSerializer.copy(source, target);
        }
        if ((flags & CELL) != 0) {
            TupleSerializer.INSTANCE.copy(source, target);
        }
    }

    @Override
    public TypeSerializerSnapshot<RootUpdate<T>> snapshotConfiguration() {
        return new RootUpdateSerializerSnapshot<>(this);
    }

    /** Snapshot of a {@link RootUpdateSerializer}: the nested payload serializer's snapshot. */
    public static final class RootUpdateSerializerSnapshot<T>
            extends FormatCompositeSnapshot<RootUpdate<T>, RootUpdateSerializer<T>> {
        /** 5 since its tuples are of tuple format 5 ({@link TupleSerializer#TYPED_VALUES}). */
        private static final int VERSION = 5;

        /** For reading a snapshot. */
        public RootUpdateSerializerSnapshot() {}

        RootUpdateSerializerSnapshot(RootUpdateSerializer<T> serializer) {
            super(serializer);
        }

        @Override
        protected String what() {
            return "root update";
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
        protected TypeSerializer<?>[] getNestedSerializers(RootUpdateSerializer<T> outer) {
            return new TypeSerializer<?>[] {outer.payloadSerializer};
        }

        @Override
        @SuppressWarnings("unchecked") // the nested serializers are the ones getNestedSerializers returned
        protected RootUpdateSerializer<T> create(TypeSerializer<?>[] nested) {
            return new RootUpdateSerializer<>((TypeSerializer<T>) nested[0]);
        }
    }
}
