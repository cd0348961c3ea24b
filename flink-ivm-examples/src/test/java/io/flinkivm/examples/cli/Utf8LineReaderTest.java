package io.flinkivm.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class Utf8LineReaderTest {

    /** Each line as "n:text" or "n!error". */
    private static List<String> read(byte[] bytes, int maxLineBytes) throws IOException {
        List<String> out = new ArrayList<>();
        try (Utf8LineReader r = new Utf8LineReader(new ByteArrayInputStream(bytes), maxLineBytes)) {
            while (r.next()) {
                out.add(r.lineNumber() + (r.text() != null ? ":" + r.text() : "!" + r.error()));
            }
        }
        return out;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void splitsOnNewlinesAndDropsCarriageReturns() throws Exception {
        assertThat(read(utf8("a\r\nb\n\nc"), 100)).containsExactly("1:a", "2:b", "3:", "4:c");
        assertThat(read(utf8("a\n"), 100)).containsExactly("1:a");
        assertThat(read(new byte[0], 100)).isEmpty();
    }

    @Test
    void skipsAByteOrderMark() throws Exception {
        assertThat(read(utf8("\uFEFFR,a,1\n\uFEFFx"), 100)).containsExactly("1:R,a,1", "2:\uFEFFx");
    }

    @Test
    void reportsMalformedUtf8WithItsByteOffsetAndGoesOn() throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(utf8("ok\n"));
        b.writeBytes(new byte[] {'a', 'b', (byte) 0xFF, 'c', '\n'});
        b.writeBytes(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80, '\n'}); // an encoded surrogate
        b.writeBytes(utf8("ünïcödé\n"));

        assertThat(read(b.toByteArray(), 100))
                .containsExactly(
                        "1:ok",
                        "2!not valid UTF-8: malformed byte sequence at byte 3 of the line",
                        "3!not valid UTF-8: malformed byte sequence at byte 1 of the line",
                        "4:ünïcödé");
    }

    @Test
    void rejectsOverlongLinesButKeepsReading() throws Exception {
        String longLine = "x".repeat(200_000);

        assertThat(read(utf8("a\n" + longLine + "\nb"), 150_000))
                .containsExactly(
                        "1:a",
                        "2!line longer than 150000 bytes (the dead-letter text keeps its first 65536 bytes)",
                        "3:b");
        assertThat(read(utf8(longLine + "\n"), 200_000)).containsExactly("1:" + longLine);
    }

    @Test
    void rawTextOfARejectedLineIsLenient() throws Exception {
        try (Utf8LineReader r = new Utf8LineReader(new ByteArrayInputStream(new byte[] {'#', (byte) 0xFF}), 100)) {
            assertThat(r.next()).isTrue();
            assertThat(r.text()).isNull();
            assertThat(r.isComment()).isTrue();
            assertThat(r.rawText()).isEqualTo("#\uFFFD");
        }
    }
}
