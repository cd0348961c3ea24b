package io.flinkivm.flink.types;

import io.flinkivm.core.engine.keys.StageRow;
import io.flinkivm.core.query.Tuple;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Serializer for {@link StageRow}s, between key stages and in a stage's list of waiting rows. Format
 * (version 1): atom + 1 (0 for a key row, kept or dropped) and step (var-ints), a flags byte (whether an
 * origin is present, whether a key row was dropped by its selection or filter, whether the change is a
 * retraction), the values, the payload, the origin. Rows without the later flags are written as before
 * the flags existed.
 */
@Internal
public final class StageRowSerializer<T> extends PayloadRecordSerializer<StageRow<T>, T> {
    private static final long serialVersionUID = 1L;

    private static final int ORIGIN = 1;
    private static final int DROPPED = 2;
    private static final int RETRACTION = 4;
    private static final int KNOWN = ORIGIN | DROPPED | RETRACTION;

    public StageRowSerializer(TypeSerializer<T> payloadSerializer) {
        super(payloadSerializer);
    }

    @Override
    StageRowSerializer<T> withPayloadSerializer(TypeSerializer<T> payloadSerializer) {
        return new StageRowSerializer<>(payloadSerializer);
    }

    @Override
    public StageRow<T> createInstance() {
        return StageRow.keyRow(Tuple.EMPTY, payloadSerializer.createInstance(), null);
    }

    @Override
    public StageRow<T> copy(StageRow<T> from) {
        T payload = from.payload();
        T copy = copyPayload(payload);
        return copy == payload
                ? from
                : new StageRow<>(from.atom(), from.step(), from.values(), copy, from.origin(), from.retraction());
    }

    @Override
    public void serialize(StageRow<T> row, DataOutputView out) throws IOException {
        VarInts.write(row.isKeyRow() ? 0 : row.atom() + 1, out);
        VarInts.write(row.step(), out);
        out.writeByte((row.origin() != null ? ORIGIN : 0)
                | (row.isDropped() ? DROPPED : 0)
                | (row.retraction() ? RETRACTION : 0));
        TupleSerializer.INSTANCE.serialize(row.values(), out);
        payloadSerializer.serialize(row.payload(), out);
        if (row.origin() != null) {
            StringValue.writeString(row.origin(), out);
        }
    }

    @Override
    public StageRow<T> deserialize(DataInputView in) throws IOException {
        int atom = VarInts.read(in) - 1;
        int step = VarInts.read(in);
        int flags = checkFlags(in.readUnsignedByte(), KNOWN, "stage row");
        if ((flags & DROPPED) != 0) {
            atom = StageRow.DROPPED;
        }
        Tuple values = TupleSerializer.INSTANCE.deserialize(in);
        T payload = payloadSerializer.deserialize(in);
        String origin = (flags & ORIGIN) != 0 ? StringValue.readString(in) : null;
        return new StageRow<>(atom, step, values, payload, origin, (flags & RETRACTION) != 0);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        VarInts.copy(source, target);
        VarInts.copy(source, target);
        int flags = checkFlags(source.readUnsignedByte(), KNOWN, "stage row");
        target.writeByte(flags);
        TupleSerializer.INSTANCE.copy(source, target);
        payloadSerializer.copy(source, target);
        if ((flags & ORIGIN) != 0) {
            StringValue.copyString(source, target);
        }
    }

    @Override
    public TypeSerializerSnapshot<StageRow<T>> snapshotConfiguration() {
        return new StageRowSerializerSnapshot<>(this);
    }

    /** Snapshot of a {@link StageRowSerializer}: the nested payload serializer's snapshot. */
    public static final class StageRowSerializerSnapshot<T>
            extends FormatCompositeSnapshot<StageRow<T>, StageRowSerializer<T>> {
        private static final int VERSION = 1;

        /** For reading a snapshot. */
        public StageRowSerializerSnapshot() {}

        StageRowSerializerSnapshot(StageRowSerializer<T> serializer) {
            super(serializer);
        }

        @Override
        protected String what() {
            return "stage row";
        }

        @Override
        protected int format() {
            return VERSION;
        }

        @Override
        protected TypeSerializer<?>[] getNestedSerializers(StageRowSerializer<T> outer) {
            return new TypeSerializer<?>[] {outer.payloadSerializer};
        }

        @Override
        @SuppressWarnings("unchecked") // the nested serializers are the ones getNestedSerializers returned
        protected StageRowSerializer<T> create(TypeSerializer<?>[] nested) {
            return new StageRowSerializer<>((TypeSerializer<T>) nested[0]);
        }
    }
}
