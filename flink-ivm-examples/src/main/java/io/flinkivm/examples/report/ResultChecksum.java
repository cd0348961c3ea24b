package io.flinkivm.examples.report;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.examples.csv.Csv;
import java.nio.charset.StandardCharsets;

/**
 * An order-independent checksum of a result: the sum, modulo 2^64, of the 64-bit FNV-1a hash of each row's CSV
 * line ({@link RowFormat}: its values, then its payload in the semiring's text form; without line break, as the
 * result files hold it). Two results with the same rows have the same checksum and row count, in whatever order
 * and however split into parts (two different ones, the same checksum with a chance of about 2^-64); anyone can
 * compute it from the files or from another engine's result.
 */
public final class ResultChecksum {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private long sum;
    private long rows;

    /** Adds a row: a tuple and its payload in the semiring's text form. */
    public void add(Tuple tuple, String payload) {
        addLine(Csv.line(RowFormat.fields(tuple, payload)));
    }

    /** Adds a row given as its CSV line (no line break). */
    public void addLine(String line) {
        sum += hash(line);
        rows++;
    }

    /** The checksum of the rows added so far. */
    public long value() {
        return sum;
    }

    public long rows() {
        return rows;
    }

    /** The 64-bit FNV-1a hash of the line's UTF-8 bytes. */
    public static long hash(String line) {
        long h = FNV_OFFSET;
        for (byte b : line.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= FNV_PRIME;
        }
        return h;
    }
}
