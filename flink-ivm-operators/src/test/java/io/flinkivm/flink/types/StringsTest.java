package io.flinkivm.flink.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.types.StringValue;
import org.junit.jupiter.api.Test;

/**
 * {@link Strings} writes the bytes of Flink's {@code StringValue.writeString} and reads them back, for
 * ASCII, Latin-1, other BMP chars and surrogate pairs, at lengths around the var-ints' steps.
 */
class StringsTest {
    static List<String> samples() {
        Random random = new Random(7);
        List<String> out = new ArrayList<>(List.of("", "a", "é", "日本", "\uD83D\uDE00", "x\u0080y", "\u007F"));
        int[] lengths = {1, 5, 126, 127, 128, 129, 300, 2047, 2048, 2049, 16383, 16384, 20000};
        char[][] alphabets = {
            "abcdefghijklmnopqrstuvwxyz0123456789 ,.-".toCharArray(),
            "abcéàüßÿ\u0080".toCharArray(),
            "a日本語\uFFFF\u0800\u07FF".toCharArray()
        };
        for (int n : lengths) {
            for (char[] alphabet : alphabets) {
                StringBuilder s = new StringBuilder();
                for (int i = 0; i < n; i++) {
                    s.append(alphabet[random.nextInt(alphabet.length)]);
                }
                out.add(s.toString());
                // ASCII with one other char near the end: the block read ends inside a longer char.
                out.add(s.toString().replaceAll("[^a-z]", "q") + "é");
            }
        }
        return out;
    }

    @Test
    void writesStringValuesBytesAndReadsThemBack() throws IOException {
        for (String s : samples()) {
            DataOutputSerializer ours = new DataOutputSerializer(64);
            Strings.write(s, ours);
            ours.writeInt(42);
            DataOutputSerializer flinks = new DataOutputSerializer(64);
            StringValue.writeString(s, flinks);
            flinks.writeInt(42);
            assertThat(ours.getCopyOfBuffer())
                    .as("bytes of a string of %d chars", s.length())
                    .isEqualTo(flinks.getCopyOfBuffer());

            DataInputDeserializer in = new DataInputDeserializer(flinks.getCopyOfBuffer());
            assertThat(Strings.read(in)).isEqualTo(s);
            assertThat(in.readInt()).as("the next field").isEqualTo(42);
        }
    }

    @Test
    void aNullStringIsCorruptData() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(8);
        StringValue.writeString(null, out);
        assertThatThrownBy(() -> Strings.read(new DataInputDeserializer(out.getCopyOfBuffer())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("null string");
    }
}
