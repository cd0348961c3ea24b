package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Serializer for {@link Tuple}s. Format (version 1): the arity as an unsigned var-int, then per
 * value a tag byte and the value: {@code 1} String ({@link StringValue} encoding: any length, any
 * Unicode), {@code 2} Long (8 bytes), {@code 3} Integer (4 bytes), {@code 4} Double (8 bytes of
 * {@link Double#doubleToLongBits}, so every NaN is written alike), {@code 5} false, {@code 6} true.
 *
 * <p>Equal tuples have equal bytes, as RocksDB keys require. Tuples are immutable: copies are the
 * tuple itself.
 */
public final class TupleSerializer extends TypeSerializerSingleton<Tuple> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final TupleSerializer INSTANCE = new TupleSerializer();

    static final byte STRING = 1;
    static final byte LONG = 2;
    static final byte INT = 3;
    static final byte DOUBLE = 4;
    static final byte FALSE = 5;
    static final byte TRUE = 6;

    private TupleSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Tuple createInstance() {
        return Tuple.EMPTY;
    }

    @Override
    public Tuple copy(Tuple from) {
        return from;
    }

    @Override
    public Tuple copy(Tuple from, Tuple reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(Tuple tuple, DataOutputView out) throws IOException {
        int arity = tuple.arity();
        VarInts.write(arity, out);
        for (int i = 0; i < arity; i++) {
            Object v = tuple.get(i);
            if (v instanceof Long l) {
                out.writeByte(LONG);
                out.writeLong(l);
            } else if (v instanceof String s) {
                out.writeByte(STRING);
                StringValue.writeString(s, out);
            } else if (v instanceof Integer n) {
                out.writeByte(INT);
                out.writeInt(n);
            } else if (v instanceof Double d) {
                out.writeByte(DOUBLE);
                out.writeLong(Double.doubleToLongBits(d));
            } else if (v instanceof Boolean b) {
                out.writeByte(b ? TRUE : FALSE);
            } else {
                throw new IllegalArgumentException("cannot serialize tuple value at position " + i + ": "
                        + (v == null ? "null" : "type " + v.getClass().getName())
                        + "; tuples hold non-null String, Long, Integer, Double or Boolean values");
            }
        }
    }

    @Override
    public Tuple deserialize(DataInputView in) throws IOException {
        int arity = VarInts.read(in);
        if (arity == 0) {
            return Tuple.EMPTY;
        }
        Object[] values = new Object[arity];
        for (int i = 0; i < arity; i++) {
            byte tag = in.readByte();
            switch (tag) {
                case LONG -> values[i] = in.readLong();
                case STRING -> values[i] = StringValue.readString(in);
                case INT -> values[i] = in.readInt();
                case DOUBLE -> values[i] = Double.longBitsToDouble(in.readLong());
                case FALSE -> values[i] = Boolean.FALSE;
                case TRUE -> values[i] = Boolean.TRUE;
                default -> throw unknownTag(tag, i);
            }
        }
        return Tuple.wrap(values);
    }

    @Override
    public Tuple deserialize(Tuple reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        int arity = VarInts.copy(source, target);
        for (int i = 0; i < arity; i++) {
            byte tag = source.readByte();
            target.writeByte(tag);
            switch (tag) {
                case LONG, DOUBLE -> target.writeLong(source.readLong());
                case STRING -> StringValue.copyString(source, target);
                case INT -> target.writeInt(source.readInt());
                case FALSE, TRUE -> {}
                default -> throw unknownTag(tag, i);
            }
        }
    }

    private static IOException unknownTag(byte tag, int position) {
        return new IOException("corrupt tuple data: unknown value tag " + tag + " at position " + position);
    }

    @Override
    public TypeSerializerSnapshot<Tuple> snapshotConfiguration() {
        return new TupleSerializerSnapshot();
    }

    /** Snapshot of the (configuration-free) {@link TupleSerializer}. */
    public static final class TupleSerializerSnapshot extends SimpleTypeSerializerSnapshot<Tuple> {
        public TupleSerializerSnapshot() {
            super(() -> INSTANCE);
        }
    }
}
