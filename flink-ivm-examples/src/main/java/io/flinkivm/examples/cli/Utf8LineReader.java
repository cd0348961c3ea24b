package io.flinkivm.examples.cli;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a byte stream line by line ('\n', with an optional '\r' before it) and decodes each line as
 * strict UTF-8, so that a line with malformed bytes, or a line longer than the limit, is reported
 * as that line's problem instead of failing the whole stream. A UTF-8 byte-order mark at the start
 * is skipped. Memory stays bounded by the line limit: the rest of an over-long line is skipped.
 */
final class Utf8LineReader implements Closeable {

    /** How much of an over-long line {@link #rawText()} keeps. */
    static final int KEPT_PREFIX_BYTES = 64 * 1024;

    private final InputStream in;
    private final int maxLineBytes;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private final byte[] buffer = new byte[64 * 1024];
    private int bufferPos;
    private int bufferLimit;
    private boolean eof;

    private byte[] line = new byte[256];
    private int lineLength;
    private boolean tooLong;
    private CharBuffer chars = CharBuffer.allocate(256);
    private long lineNumber;
    private String text;
    private String error;

    Utf8LineReader(InputStream in, int maxLineBytes) {
        this.in = in;
        this.maxLineBytes = maxLineBytes;
    }

    /** Advances to the next line; false at the end of the input. */
    boolean next() throws IOException {
        lineLength = 0;
        tooLong = false;
        text = null;
        error = null;
        boolean sawAny = false;
        while (true) {
            if (bufferPos == bufferLimit && !fill()) {
                if (!sawAny) {
                    return false;
                }
                break;
            }
            sawAny = true;
            int start = bufferPos;
            int end = start;
            while (end < bufferLimit && buffer[end] != '\n') {
                end++;
            }
            append(start, end - start);
            if (end < bufferLimit) {
                bufferPos = end + 1;
                break;
            }
            bufferPos = end;
        }
        lineNumber++;
        if (lineLength > 0 && line[lineLength - 1] == '\r' && !tooLong) {
            lineLength--;
        }
        int offset = lineNumber == 1 && hasByteOrderMark() ? 3 : 0;
        if (tooLong) {
            error = "line longer than " + maxLineBytes + " bytes (the dead-letter text keeps its first "
                    + KEPT_PREFIX_BYTES + " bytes)";
            return true;
        }
        decode(offset);
        return true;
    }

    /** The number of the current line, from 1. */
    long lineNumber() {
        return lineNumber;
    }

    /** The current line's text, or null if {@link #error()} is set. */
    String text() {
        return text;
    }

    /** Why the current line cannot be read (not UTF-8, too long), or null. */
    String error() {
        return error;
    }

    /** Whether the current line's first byte (after a byte-order mark) is '#': a comment, even if not UTF-8. */
    boolean isComment() {
        int first = lineNumber == 1 && hasByteOrderMark() ? 3 : 0;
        return lineLength > first && line[first] == '#';
    }

    /** The current line decoded leniently (malformed bytes become U+FFFD), for reports and dead letters. */
    String rawText() {
        if (text != null) {
            return text;
        }
        int from = lineNumber == 1 && hasByteOrderMark() ? 3 : 0;
        int to = tooLong ? Math.min(lineLength, KEPT_PREFIX_BYTES) : lineLength;
        return new String(line, from, Math.max(0, to - from), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private boolean hasByteOrderMark() {
        return lineLength >= 3 && (line[0] & 0xFF) == 0xEF && (line[1] & 0xFF) == 0xBB && (line[2] & 0xFF) == 0xBF;
    }

    private boolean fill() throws IOException {
        if (eof) {
            return false;
        }
        int n = in.read(buffer, 0, buffer.length);
        while (n == 0) {
            n = in.read(buffer, 0, buffer.length);
        }
        if (n < 0) {
            eof = true;
            return false;
        }
        bufferPos = 0;
        bufferLimit = n;
        return true;
    }

    private void append(int from, int length) {
        if (tooLong || length == 0) {
            return;
        }
        if ((long) lineLength + length > maxLineBytes) {
            tooLong = true;
            length = Math.max(0, Math.min(length, KEPT_PREFIX_BYTES - lineLength));
        }
        if (lineLength + length > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + length));
        }
        System.arraycopy(buffer, from, line, lineLength, length);
        lineLength += length;
    }

    private void decode(int offset) {
        int n = lineLength - offset;
        if (chars.capacity() < n) {
            chars = CharBuffer.allocate(Math.max(chars.capacity() * 2, n));
        }
        chars.clear();
        ByteBuffer bytes = ByteBuffer.wrap(line, offset, n);
        decoder.reset();
        CoderResult result = decoder.decode(bytes, chars, true);
        if (!result.isError()) {
            result = decoder.flush(chars);
        }
        if (result.isError()) {
            error = "not valid UTF-8: malformed byte sequence at byte " + (bytes.position() + 1) + " of the line";
            return;
        }
        chars.flip();
        text = chars.toString();
    }
}
