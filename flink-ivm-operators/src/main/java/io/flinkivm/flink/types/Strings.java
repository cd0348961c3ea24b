package io.flinkivm.flink.types;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Strings in the bytes of Flink's {@link StringValue#writeString}: the length plus one as a var-int,
 * then each char as a var-int, so a char below 0x80 is one byte, itself. Where every char is below
 * 0x80 (most keys, names and padding) the chars are written and read as one block of bytes instead of a
 * call per byte; other strings take {@code StringValue}'s own loop. The bytes are the same either way,
 * so state and savepoints written with {@code StringValue} read back unchanged.
 */
final class Strings {
    private Strings() {}

    /** Writes {@code s} (not null) as {@link StringValue#writeString} does. */
    static void write(String s, DataOutputView out) throws IOException {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                StringValue.writeString(s, out);
                return;
            }
        }
        VarInts.write(n + 1, out);
        out.write(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    /**
     * Reads a string {@link StringValue#writeString} wrote (not null). Every char takes at least one
     * byte, so the first {@code length} bytes are all the string's; the chars past them, when some took
     * more, are read one byte at a time.
     */
    static String read(DataInputView in) throws IOException {
        int header = VarInts.read(in);
        if (header == 0) {
            throw new IOException("corrupt data: a null string where a tuple value must be");
        }
        int n = header - 1;
        byte[] bytes = new byte[n];
        in.readFully(bytes);
        for (int i = 0; i < n; i++) {
            if (bytes[i] < 0) {
                return decode(bytes, i, in);
            }
        }
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** The rest of a string whose first {@code ascii} chars are {@code bytes}' first, and whose next byte is not. */
    private static String decode(byte[] bytes, int ascii, DataInputView in) throws IOException {
        int n = bytes.length;
        char[] chars = new char[n];
        for (int i = 0; i < ascii; i++) {
            chars[i] = (char) bytes[i];
        }
        int p = ascii;
        for (int c = ascii; c < n; c++) {
            int b = p < n ? bytes[p++] & 0xFF : in.readUnsignedByte();
            if (b >= 0x80) {
                int value = b & 0x7F;
                int shift = 7;
                int next;
                while ((next = p < n ? bytes[p++] & 0xFF : in.readUnsignedByte()) >= 0x80) {
                    value |= (next & 0x7F) << shift;
                    shift += 7;
                }
                b = value | next << shift;
            }
            chars[c] = (char) b;
        }
        return new String(chars);
    }
}
