package io.flinkivm.examples.cli;

import java.util.List;

/**
 * RFC 4180 fields within one line: a field in double quotes may contain commas, and {@code ""}
 * stands for one quote inside it. A quoted field cannot span lines, so one bad quote costs one
 * line, not the rest of the file. Instances reuse a buffer and are not thread-safe.
 */
final class Csv {

    /** The largest field, in UTF-8 bytes. */
    static final int MAX_FIELD_BYTES = 64 * 1024;

    private final StringBuilder field = new StringBuilder();

    /**
     * Splits {@code line} into {@code out} (cleared first).
     *
     * @throws RejectedLineException for bad quoting or a field longer than {@link #MAX_FIELD_BYTES}
     */
    void split(String line, List<String> out) throws RejectedLineException {
        out.clear();
        int n = line.length();
        int i = 0;
        while (true) {
            int number = out.size() + 1;
            field.setLength(0);
            int bytes = 0;
            if (i < n && line.charAt(i) == '"') {
                int open = i++;
                while (true) {
                    if (i == n) {
                        throw new RejectedLineException("bad quoting: the quote that opens field " + number
                                + " at column " + (open + 1) + " is never closed (a quoted field cannot span lines)");
                    }
                    char c = line.charAt(i++);
                    if (c == '"') {
                        if (i < n && line.charAt(i) == '"') {
                            i++;
                        } else {
                            break;
                        }
                    }
                    field.append(c);
                    bytes = checkedSize(bytes, c, number);
                }
                if (i < n && line.charAt(i) != ',') {
                    throw new RejectedLineException("bad quoting: '" + line.charAt(i) + "' at column " + (i + 1)
                            + " follows the closing quote of field " + number + "; write \"\" for a quote inside a"
                            + " quoted field");
                }
            } else {
                while (i < n) {
                    char c = line.charAt(i);
                    if (c == ',') {
                        break;
                    }
                    if (c == '"') {
                        throw new RejectedLineException("bad quoting: quote at column " + (i + 1) + " inside unquoted"
                                + " field " + number + "; put the whole field in quotes and write \"\" for the quote");
                    }
                    field.append(c);
                    bytes = checkedSize(bytes, c, number);
                    i++;
                }
            }
            out.add(field.toString());
            if (i == n) {
                return;
            }
            i++; // the comma; a comma at the end of the line leaves an empty last field
        }
    }

    private static int checkedSize(int bytes, char c, int number) throws RejectedLineException {
        // UTF-8 length; a surrogate pair (4 bytes) counts 2 per half.
        int size = bytes + (c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3);
        if (size > MAX_FIELD_BYTES) {
            throw new RejectedLineException("field " + number + " is longer than " + MAX_FIELD_BYTES
                    + " bytes (64 KiB)");
        }
        return size;
    }

    /** Appends {@code value} to {@code sb}, quoted if it contains a comma, a quote or a line break. */
    static StringBuilder appendField(StringBuilder sb, String value) {
        boolean quote = false;
        for (int i = 0; i < value.length() && !quote; i++) {
            char c = value.charAt(i);
            quote = c == ',' || c == '"' || c == '\n' || c == '\r';
        }
        if (!quote) {
            return sb.append(value);
        }
        sb.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                sb.append('"');
            }
            sb.append(c);
        }
        return sb.append('"');
    }
}
