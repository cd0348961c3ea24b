package io.flinkivm.examples.csv;

import java.util.List;
import java.util.function.Function;

/**
 * RFC 4180 fields within one line: a field in double quotes may contain commas, and {@code ""}
 * stands for one quote inside it. A quoted field cannot span lines, so one bad quote costs one
 * line, not the rest of the file. The {@code run} command's input files ({@link #forFileLines()})
 * and the {@code kafka} command's CSV records ({@link #forRecords()}) share these rules; only the
 * wording of the reasons differs (a record's reason names CSV, as a topic may carry JSON, and has
 * no lines to span), and a file line's fields are limited to {@link #MAX_FIELD_BYTES} while it is
 * split (the Kafka parser checks the values of both its formats after splitting). Each caller
 * passes its own exception for a bad line. Instances reuse a buffer and are not thread-safe.
 */
public final class Csv {

    /** The largest field of a file line, in UTF-8 bytes. */
    public static final int MAX_FIELD_BYTES = 64 * 1024;

    private final StringBuilder field = new StringBuilder();
    private final String badQuoting;
    private final String unclosedNote;
    private final int maxFieldBytes;

    private Csv(String badQuoting, String unclosedNote, int maxFieldBytes) {
        this.badQuoting = badQuoting;
        this.unclosedNote = unclosedNote;
        this.maxFieldBytes = maxFieldBytes;
    }

    /** The splitter of the {@code run} command's input lines: fields of at most 64 KiB of UTF-8. */
    public static Csv forFileLines() {
        return new Csv("bad quoting", " (a quoted field cannot span lines)", MAX_FIELD_BYTES);
    }

    /** The splitter of Kafka CSV records: reasons say "bad CSV quoting"; no limit on a field's size. */
    public static Csv forRecords() {
        return new Csv("bad CSV quoting", "", Integer.MAX_VALUE);
    }

    /**
     * Splits {@code line} into {@code out} (cleared first).
     *
     * @param reject makes the caller's exception from a reason
     * @throws E for bad quoting or (file lines) a field longer than {@link #MAX_FIELD_BYTES}
     */
    public <E extends Exception> void split(String line, List<String> out, Function<String, E> reject) throws E {
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
                        throw reject.apply(badQuoting + ": the quote that opens field " + number + " at column "
                                + (open + 1) + " is never closed" + unclosedNote);
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
                    bytes = checkedSize(bytes, c, number, reject);
                }
                if (i < n && line.charAt(i) != ',') {
                    throw reject.apply(badQuoting + ": '" + line.charAt(i) + "' at column " + (i + 1)
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
                        throw reject.apply(badQuoting + ": quote at column " + (i + 1) + " inside unquoted field "
                                + number + "; put the whole field in quotes and write \"\" for the quote");
                    }
                    field.append(c);
                    bytes = checkedSize(bytes, c, number, reject);
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

    private <E extends Exception> int checkedSize(int bytes, char c, int number, Function<String, E> reject) throws E {
        // UTF-8 length; a surrogate pair (4 bytes) counts 2 per half.
        int size = bytes + (c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3);
        if (size > maxFieldBytes) {
            throw reject.apply("field " + number + " is longer than " + maxFieldBytes + " bytes (64 KiB)");
        }
        return size;
    }

    /** The fields as one CSV line (without line break), each quoted where needed ({@link #appendField}). */
    public static String line(List<String> fields) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            appendField(sb, fields.get(i)).append(i + 1 < fields.size() ? "," : "");
        }
        return sb.toString();
    }

    /** Appends {@code value} to {@code sb}, quoted if it contains a comma, a quote or a line break. */
    public static StringBuilder appendField(StringBuilder sb, String value) {
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
