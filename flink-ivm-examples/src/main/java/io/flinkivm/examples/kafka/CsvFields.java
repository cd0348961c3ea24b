package io.flinkivm.examples.kafka;

import java.util.List;

/**
 * Splits one CSV record into fields with the rules of the {@code run} command's input files
 * (RFC 4180 within one line): a field in double quotes may contain commas, and {@code ""} stands
 * for a quote inside it. Instances reuse a buffer and are not thread-safe.
 */
final class CsvFields {

    private final StringBuilder field = new StringBuilder();

    /**
     * Splits {@code line} into {@code out} (cleared first).
     *
     * @throws RejectedRecordException for bad quoting
     */
    void split(String line, List<String> out) throws RejectedRecordException {
        out.clear();
        int n = line.length();
        int i = 0;
        while (true) {
            int number = out.size() + 1;
            field.setLength(0);
            if (i < n && line.charAt(i) == '"') {
                int open = i++;
                while (true) {
                    if (i == n) {
                        throw new RejectedRecordException("bad CSV quoting: the quote that opens field " + number
                                + " at column " + (open + 1) + " is never closed");
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
                }
                if (i < n && line.charAt(i) != ',') {
                    throw new RejectedRecordException("bad CSV quoting: '" + line.charAt(i) + "' at column " + (i + 1)
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
                        throw new RejectedRecordException("bad CSV quoting: quote at column " + (i + 1)
                                + " inside unquoted field " + number + "; put the whole field in quotes and write \"\""
                                + " for the quote");
                    }
                    field.append(c);
                    i++;
                }
            }
            out.add(field.toString());
            if (i == n) {
                return;
            }
            i++; // the comma; a comma at the end leaves an empty last field
        }
    }
}
