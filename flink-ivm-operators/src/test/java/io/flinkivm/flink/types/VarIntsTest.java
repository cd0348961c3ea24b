package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class VarIntsTest {

    @Test
    void roundTripsAndSizes() throws IOException {
        int[] values = {0, 1, 127, 128, 16_383, 16_384, 1 << 28, Integer.MAX_VALUE};
        int[] sizes = {1, 1, 1, 2, 2, 3, 5, 5};
        for (int i = 0; i < values.length; i++) {
            DataOutputSerializer out = new DataOutputSerializer(8);
            VarInts.write(values[i], out);
            assertThat(out.length()).as("size of %d", values[i]).isEqualTo(sizes[i]);
            assertThat(VarInts.read(new DataInputDeserializer(out.getCopyOfBuffer())))
                    .isEqualTo(values[i]);
        }
    }

    @Test
    void rejectsNegativeAndOverlong() {
        assertThatThrownBy(() -> VarInts.write(-1, new DataOutputSerializer(8)))
                .isInstanceOf(IllegalArgumentException.class);
        byte[] overlong = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x08};
        assertThatThrownBy(() -> VarInts.read(new DataInputDeserializer(overlong)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("exceeds 31 bits");
    }

    @Test
    void signedLongsAreZigZagEncoded() throws IOException {
        long[] values = {0, -1, 1, -64, 63, 64, -65, 8191, Long.MIN_VALUE, Long.MAX_VALUE};
        int[] sizes = {1, 1, 1, 1, 1, 2, 2, 2, 10, 10};
        for (int i = 0; i < values.length; i++) {
            DataOutputSerializer out = new DataOutputSerializer(16);
            VarInts.writeSignedLong(values[i], out);
            assertThat(out.length()).as("size of %d", values[i]).isEqualTo(sizes[i]);
            assertThat(VarInts.readSignedLong(new DataInputDeserializer(out.getCopyOfBuffer())))
                    .isEqualTo(values[i]);
        }
        byte[] overlong = new byte[10];
        java.util.Arrays.fill(overlong, (byte) 0xFF);
        assertThatThrownBy(() -> VarInts.readSignedLong(new DataInputDeserializer(overlong)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("exceeds 64 bits");
    }
}
