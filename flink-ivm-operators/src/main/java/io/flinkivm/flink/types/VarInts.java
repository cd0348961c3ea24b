package io.flinkivm.flink.types;

import java.io.IOException;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** Unsigned variable-length ints and longs (7 bits a byte, low bits first). */
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
}
