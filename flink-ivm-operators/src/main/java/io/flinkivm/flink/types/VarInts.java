package io.flinkivm.flink.types;

import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Variable-length ints and longs, 7 bits a byte, low bits first, a set high bit when more follow:
 * unsigned, or zig-zag encoded for signed values (0, -1, 1, -2, ... as 0, 1, 2, 3, ...), so that
 * values of small magnitude take one byte whatever their sign.
 */
final class VarInts {
    private VarInts() {}

    static void write(int value, DataOutputView out) throws IOException {
        if (value < 0) {
            throw new IllegalArgumentException("not an unsigned var-int: " + value);
        }
        while ((value & ~0x7F) != 0) {
            out.writeByte((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out.writeByte(value);
    }

    static int read(DataInputView in) throws IOException {
        int value = 0;
        for (int shift = 0; shift < 28; shift += 7) {
            int b = in.readUnsignedByte();
            value |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        int last = in.readUnsignedByte();
        if (last > 0x07) {
            throw new IOException("corrupt data: var-int exceeds 31 bits");
        }
        return value | (last << 28);
    }

    /** Copies one var-int from {@code in} to {@code out} and returns its value. */
    static int copy(DataInputView in, DataOutputView out) throws IOException {
        int value = read(in);
        write(value, out);
        return value;
    }

    static void writeLong(long value, DataOutputView out) throws IOException {
        if (value < 0) {
            throw new IllegalArgumentException("not an unsigned var-long: " + value);
        }
        while ((value & ~0x7FL) != 0) {
            out.writeByte((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.writeByte((int) value);
    }

    static long readLong(DataInputView in) throws IOException {
        long value = 0;
        for (int shift = 0; shift < 63; shift += 7) {
            int b = in.readUnsignedByte();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IOException("corrupt data: var-long exceeds 63 bits");
    }

    /** Zig-zag: a signed long as an unsigned one whose magnitude grows with the signed value's. */
    static long zigZag(long value) {
        return (value << 1) ^ (value >> 63);
    }

    /** The inverse of {@link #zigZag}. */
    static long unZigZag(long encoded) {
        return (encoded >>> 1) ^ -(encoded & 1);
    }

    /** Writes {@code value} as an unsigned var-long of all 64 bits (up to 10 bytes). */
    static void writeUnsignedLong(long value, DataOutputView out) throws IOException {
        while ((value & ~0x7FL) != 0) {
            out.writeByte((int) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.writeByte((int) value);
    }

    /** Reads what {@link #writeUnsignedLong} wrote, continuing at bit {@code shift} onto {@code value}. */
    static long readUnsignedLong(DataInputView in, long value, int shift) throws IOException {
        for (; shift < 64; shift += 7) {
            int b = in.readUnsignedByte();
            if (shift == 63 && b > 1) {
                throw new IOException("corrupt data: var-long exceeds 64 bits");
            }
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new IOException("corrupt data: var-long exceeds 64 bits");
    }

    /** Writes a signed long zig-zag encoded (one byte for -64..63). */
    static void writeSignedLong(long value, DataOutputView out) throws IOException {
        writeUnsignedLong(zigZag(value), out);
    }

    static long readSignedLong(DataInputView in) throws IOException {
        return unZigZag(readUnsignedLong(in, 0, 0));
    }
}
