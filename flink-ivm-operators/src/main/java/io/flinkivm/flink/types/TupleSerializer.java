package io.flinkivm.flink.types;

import io.flinkivm.core.query.Tuple;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Serializer for {@link Tuple}s. Format (version 5; version 4 had the same bytes, but SQL values of
 * other types than integers, strings, floating point and Booleans as text, see {@link #TYPED_VALUES}): the arity as an unsigned var-int, then per value a
 * header byte whose low three bits say the type: {@code 1} Long and {@code 2} Integer (zig-zag encoded:
 * the header's bits 3-6 hold the low four bits, bit 7 says that the rest follows as an unsigned
 * var-long, so -8..7 take the header alone and -1024..1023 one byte more), {@code 3} String (then
 * {@link StringValue}'s encoding: any length, any Unicode), {@code 4} Double (8 bytes of
 * {@link Double#doubleToLongBits}, so every NaN is written alike), {@code 5} false, {@code 6} true.
 * The earlier format (a tag byte, 8-byte longs, 4-byte ints; flink-ivm's first state layout) is
 * refused when restored ({@link FormatSnapshot}).
 *
 * <p>Equal tuples have equal bytes, as RocksDB keys require. Tuples are immutable: copies are the
 * tuple itself.
 */
@Internal
public final class TupleSerializer extends TypeSerializerSingleton<Tuple> {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final TupleSerializer INSTANCE = new TupleSerializer();

    /** The format version (the snapshot's). */
    static final int FORMAT = 5;

    /**
     * What tuple format 5 changed, for the message that refuses state of an earlier one (which would
     * otherwise read, with values of another form that no longer join or group with the new ones).
     */
    static final String TYPED_VALUES = "since tuple format 5 SQL values keep their type: a DATE is its day number,"
            + " a TIME its milliseconds, a TIMESTAMP its microseconds (nanoseconds above precision 6), a DECIMAL"
            + " of up to 18 digits its unscaled units, where format 4 held a DATE, TIMESTAMP or DECIMAL as its text";

    static final int LONG = 1;
    static final int INT = 2;
    static final int STRING = 3;
    static final int DOUBLE = 4;
    static final int FALSE = 5;
    static final int TRUE = 6;
    private static final int TYPE = 0x07;
    private static final int MORE = 0x80;

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
                writeNumber(LONG, l, out);
            } else if (v instanceof Integer n) {
                writeNumber(INT, n, out);
            } else if (v instanceof String s) {
                out.writeByte(STRING);
                Strings.write(s, out);
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

    /** A type's header with the low four bits of the zig-zag encoded value, then the rest if any. */
    private static void writeNumber(int type, long value, DataOutputView out) throws IOException {
        long z = VarInts.zigZag(value);
        long rest = z >>> 4;
        out.writeByte(type | (int) (z & 0x0F) << 3 | (rest != 0 ? MORE : 0));
        if (rest != 0) {
            VarInts.writeUnsignedLong(rest, out);
        }
    }

    private static long readNumber(int header, DataInputView in) throws IOException {
        long z = (header >>> 3) & 0x0F;
        if ((header & MORE) != 0) {
            z = VarInts.readUnsignedLong(in, z, 4);
        }
        return VarInts.unZigZag(z);
    }

    @Override
    public Tuple deserialize(DataInputView in) throws IOException {
        int arity = VarInts.read(in);
        if (arity == 0) {
            return Tuple.EMPTY;
        }
        Object[] values = new Object[arity];
        for (int i = 0; i < arity; i++) {
            int header = in.readUnsignedByte();
            switch (header & TYPE) {
                case LONG -> values[i] = readNumber(header, in);
                case INT -> values[i] = readInt(header, in, i);
                case STRING -> values[i] = Strings.read(in);
                case DOUBLE -> values[i] = Double.longBitsToDouble(in.readLong());
                case FALSE -> values[i] = Boolean.FALSE;
                case TRUE -> values[i] = Boolean.TRUE;
                default -> throw unknownType(header, i);
            }
        }
        return Tuple.wrap(values);
    }

    private static int readInt(int header, DataInputView in, int position) throws IOException {
        long v = readNumber(header, in);
        if (v != (int) v) {
            throw new IOException("corrupt tuple data: integer out of range at position " + position);
        }
        return (int) v;
    }

    @Override
    public Tuple deserialize(Tuple reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        int arity = VarInts.copy(source, target);
        for (int i = 0; i < arity; i++) {
            int header = source.readUnsignedByte();
            target.writeByte(header);
            switch (header & TYPE) {
                case LONG, INT -> {
                    if ((header & MORE) != 0) {
                        int b;
                        do {
                            b = source.readUnsignedByte();
                            target.writeByte(b);
                        } while ((b & 0x80) != 0);
                    }
                }
                case DOUBLE -> target.writeLong(source.readLong());
                case STRING -> StringValue.copyString(source, target);
                case FALSE, TRUE -> {}
                default -> throw unknownType(header, i);
            }
        }
    }

    private static IOException unknownType(int header, int position) {
        return new IOException(
                "corrupt tuple data: unknown value type " + (header & TYPE) + " at position " + position);
    }

    @Override
    public String toString() {
        return "flink-ivm's TupleSerializer (format " + FORMAT + ")";
    }

    @Override
    public TypeSerializerSnapshot<Tuple> snapshotConfiguration() {
        return new TupleSerializerSnapshot();
    }

    /** Snapshot of the (configuration-free) {@link TupleSerializer}: its format version. */
    public static final class TupleSerializerSnapshot extends FormatSnapshot<Tuple> {
        public TupleSerializerSnapshot() {
            super("tuple", FORMAT, TYPED_VALUES);
        }

        @Override
        protected TupleSerializer currentSerializer() {
            return INSTANCE;
        }
    }
}
