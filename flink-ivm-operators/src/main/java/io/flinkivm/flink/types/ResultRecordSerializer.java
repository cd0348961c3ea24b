package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer for {@link ResultRecord}s. Format (version 5, of tuple format 5; 3 before the compact tuple format): snapshot id and insert count (longs), a
 * flags byte (end, prefix-exact, then which of tuple, payload, a non-zero row count and a non-empty
 * cut are present), then the present tuple, payload, row count (long) and cut (its length as a
 * var-int, then each count as a var-long).
 */
@Internal
public final class ResultRecordSerializer<T> extends PayloadRecordSerializer<ResultRecord<T>, T> {
    private static final long serialVersionUID = 1L;

    private static final int END = 1;
    private static final int PREFIX_EXACT = 2;
    private static final int TUPLE = 4;
    private static final int PAYLOAD = 8;
    private static final int ROWS = 16;
    private static final int CUT = 32;
    /** A row other than a snapshot row: a kind byte follows the flags. */
    private static final int CHANGE = 64;

    private static final int KNOWN = 127;
    private static final ResultRecord.Kind[] KINDS = ResultRecord.Kind.values();

    public ResultRecordSerializer(TypeSerializer<T> payloadSerializer) {
        super(payloadSerializer);
    }

    @Override
    ResultRecordSerializer<T> withPayloadSerializer(TypeSerializer<T> payloadSerializer) {
        return new ResultRecordSerializer<>(payloadSerializer);
    }

    @Override
    public ResultRecord<T> createInstance() {
        return ResultRecord.end(0, 0, 0, true);
    }

    @Override
    public ResultRecord<T> copy(ResultRecord<T> from) {
        T payload = from.payload();
        T copy = copyPayload(payload);
        return copy == payload
                ? from
                : ResultRecord.of(
                        from.snapshotId(),
                        from.insertCount(),
                        from.isEnd(),
                        from.tuple(),
                        copy,
                        from.rows(),
                        from.isPrefixExact(),
                        from.cut(),
                        from.kind());
    }

    @Override
    public void serialize(ResultRecord<T> record, DataOutputView out) throws IOException {
        Tuple tuple = record.tuple();
        T payload = record.payload();
        long rows = record.rows();
        long[] cut = record.isEnd() ? record.cut() : null;
        boolean hasCut = cut != null && cut.length > 0;
        int flags = (record.isEnd() ? END : 0)
                | (record.isPrefixExact() ? PREFIX_EXACT : 0)
                | (tuple != null ? TUPLE : 0)
                | (payload != null ? PAYLOAD : 0)
                | (rows != 0 ? ROWS : 0)
                | (hasCut ? CUT : 0)
                | (isChange(record) ? CHANGE : 0);
        out.writeLong(record.snapshotId());
        out.writeLong(record.insertCount());
        out.writeByte(flags);
        if (isChange(record)) {
            out.writeByte(record.kind().ordinal());
        }
        if (tuple != null) {
            TupleSerializer.INSTANCE.serialize(tuple, out);
        }
        if (payload != null) {
            payloadSerializer.serialize(payload, out);
        }
        if (rows != 0) {
            out.writeLong(rows);
        }
        if (hasCut) {
            VarInts.write(cut.length, out);
            for (long c : cut) {
                VarInts.writeLong(c, out);
            }
        }
    }

    @Override
    public ResultRecord<T> deserialize(DataInputView in) throws IOException {
        long snapshotId = in.readLong();
        long insertCount = in.readLong();
        int flags = checkFlags(in.readUnsignedByte(), KNOWN, "result record");
        ResultRecord.Kind kind = (flags & CHANGE) != 0 ? kind(in.readUnsignedByte()) : ResultRecord.Kind.SNAPSHOT;
        Tuple tuple = (flags & TUPLE) != 0 ? TupleSerializer.INSTANCE.deserialize(in) : null;
        T payload = (flags & PAYLOAD) != 0 ? payloadSerializer.deserialize(in) : null;
        long rows = (flags & ROWS) != 0 ? in.readLong() : 0;
        long[] cut = null;
        if ((flags & CUT) != 0) {
            cut = new long[VarInts.read(in)];
            for (int i = 0; i < cut.length; i++) {
                cut[i] = VarInts.readLong(in);
            }
        }
        return ResultRecord.of(
                snapshotId,
                insertCount,
                (flags & END) != 0,
                tuple,
                payload,
                rows,
                (flags & PREFIX_EXACT) != 0,
                cut,
                kind);
    }

    private static boolean isChange(ResultRecord<?> record) {
        return !record.isEnd() && record.kind() != ResultRecord.Kind.SNAPSHOT;
    }

    private static ResultRecord.Kind kind(int ordinal) throws IOException {
        if (ordinal >= KINDS.length) {
            throw new IOException("corrupt data: unknown result record kind " + ordinal);
        }
        return KINDS[ordinal];
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        target.writeLong(source.readLong());
        target.writeLong(source.readLong());
        int flags = checkFlags(source.readUnsignedByte(), KNOWN, "result record");
        target.writeByte(flags);
        if ((flags & CHANGE) != 0) {
            target.writeByte(source.readUnsignedByte());
        }
        if ((flags & TUPLE) != 0) {
            TupleSerializer.INSTANCE.copy(source, target);
        }
        if ((flags & PAYLOAD) != 0) {
            payloadSerializer.copy(source, target);
        }
        if ((flags & ROWS) != 0) {
            target.writeLong(source.readLong());
        }
        if ((flags & CUT) != 0) {
            int n = VarInts.copy(source, target);
            for (int i = 0; i < n; i++) {
                VarInts.writeLong(VarInts.readLong(source), target);
            }
        }
    }

    @Override
    public TypeSerializerSnapshot<ResultRecord<T>> snapshotConfiguration() {
        return new ResultRecordSerializerSnapshot<>(this);
    }

    /** Snapshot of a {@link ResultRecordSerializer}: the nested payload serializer's snapshot. */
    public static final class ResultRecordSerializerSnapshot<T>
            extends FormatCompositeSnapshot<ResultRecord<T>, ResultRecordSerializer<T>> {
        /** 5 since its tuples are of tuple format 5 ({@link TupleSerializer#TYPED_VALUES}). */
        private static final int VERSION = 5;

        /** For reading a snapshot. */
        public ResultRecordSerializerSnapshot() {}

        ResultRecordSerializerSnapshot(ResultRecordSerializer<T> serializer) {
            super(serializer);
        }

        @Override
        protected String what() {
            return "result record";
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
        protected TypeSerializer<?>[] getNestedSerializers(ResultRecordSerializer<T> outer) {
            return new TypeSerializer<?>[] {outer.payloadSerializer};
        }

        @Override
        @SuppressWarnings("unchecked") // the nested serializers are the ones getNestedSerializers returned
        protected ResultRecordSerializer<T> create(TypeSerializer<?>[] nested) {
            return new ResultRecordSerializer<>((TypeSerializer<T>) nested[0]);
        }
    }
}
