package io.flinkivm.examples.testing;

import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Semiring;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Random input lines for the CSV insert formats, a mix of valid inserts and garbage: wrong arity, unknown
 * relations, unparsable payloads, payload zero and infinities, empty fields, oversized fields and lines,
 * bytes that are not UTF-8, random bytes, blank and comment lines, CR/LF oddities. Each line comes with
 * what the documented format says must happen to it, worked out here from the format alone (a model of
 * its own, sharing no code with the parsers it checks): for {@code run} (skipped, rejected with the
 * reason's key words, or the insert it is) and for a Kafka CSV record (one topic, payload optional).
 */
public final class GarbageLines {

    /** What must happen to a line. */
    public enum Fate {
        INSERT,
        REJECT,
        SKIP,
        SNAPSHOT
    }

    /** An insert as text: the relation, its values and the payload (null: the semiring's one). */
    public record Insert(String relation, List<String> values, String payload) {
        public Tuple tuple() {
            return Tuple.wrap(values.toArray());
        }
    }

    /**
     * What a line must become.
     *
     * @param reason key words the rejection reason contains (for {@link Fate#REJECT})
     * @param insert the insert (for {@link Fate#INSERT})
     */
    public record Expected(Fate fate, String reason, Insert insert) {
        static Expected skip() {
            return new Expected(Fate.SKIP, null, null);
        }

        static Expected reject(String reason) {
            return new Expected(Fate.REJECT, reason, null);
        }
    }

    /** The longest line {@code run} accepts, in bytes. */
    public static final int MAX_LINE_BYTES = 1024 * 1024;
    /** The longest field {@code run} accepts, in UTF-8 bytes. */
    public static final int MAX_FIELD_BYTES = 64 * 1024;
    /** How much of an over-long line the dead letter keeps, in bytes. */
    public static final int KEPT_PREFIX_BYTES = 64 * 1024;

    private static final String[] ODD_VALUES = {
        "",
        "null",
        "a,b",
        "say \"hi\"",
        "ä€𝄞",
        "\u0001",
        "tab\there",
        "cr\rinside",
        " padded ",
        "'q'",
        "NULL",
        "0",
        "-",
        "\u00a0",
        "#x"
    };
    private static final String[] BAD_RELATIONS = {
        "R9", "r1", " R1", "R1 ", "\uFEFFR1", "", "Ｒ1", "R1\u0000", "\rR1", "Q", "#", "\"R1"
    };
    private static final String[] PAYLOAD_TEXTS = {
        "",
        " ",
        "abc",
        "-1",
        "1.5",
        "inf",
        "-inf",
        "+inf",
        "infinity",
        "Infinity",
        "NaN",
        "1e3",
        "0x10",
        "99999999999999999999",
        "١",
        "１",
        "2 3",
        "0",
        "00",
        "+1",
        " 2 ",
        "0.0",
        "-0",
        "true",
        "1,5"
    };

    private final ConjunctiveQuery query;
    private final Semiring<?> semiring;
    private final Random random;
    private final List<String> relations;
    private final String[] goodPayloads;

    /**
     * @param goodPayloads payload texts that parse and keep every result exact (no overflow, no rounding)
     */
    public GarbageLines(ConjunctiveQuery query, Semiring<?> semiring, String[] goodPayloads, Random random) {
        this.query = query;
        this.semiring = semiring;
        this.random = random;
        this.relations = query.relations();
        this.goodPayloads = goodPayloads.clone();
    }

    /** A whole file of {@code lines} lines, each without its '\n'; the caller joins them. */
    public List<byte[]> lines(int lines) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < lines; i++) {
            out.add(line());
        }
        return out;
    }

    /** The bytes of a file: the lines joined by '\n', a final '\n' or not, a UTF-8 byte-order mark first or not. */
    public static byte[] file(List<byte[]> lines, boolean byteOrderMark, boolean finalNewline) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (byteOrderMark) {
            out.write(0xEF);
            out.write(0xBB);
            out.write(0xBF);
        }
        for (int i = 0; i < lines.size(); i++) {
            out.writeBytes(lines.get(i));
            if (i < lines.size() - 1 || finalNewline) {
                out.write('\n');
            }
        }
        return out.toByteArray();
    }

    /** One line's bytes (no '\n' inside). */
    public byte[] line() {
        int kind = random.nextInt(100);
        if (kind < 40) {
            return utf8(crlf(csv(validFields())));
        }
        if (kind < 47) {
            List<String> f = validFields();
            if (random.nextBoolean() && f.size() > 2) {
                f.remove(1 + random.nextInt(f.size() - 2));
            } else {
                int extra = 1 + random.nextInt(2);
                for (int i = 0; i < extra; i++) {
                    f.add(1 + random.nextInt(f.size() - 1), value());
                }
            }
            return utf8(crlf(csv(f)));
        }
        if (kind < 53) {
            List<String> f = validFields();
            f.set(0, BAD_RELATIONS[random.nextInt(BAD_RELATIONS.length)]);
            return utf8(crlf(csv(f)));
        }
        if (kind < 62) {
            List<String> f = validFields();
            f.set(f.size() - 1, PAYLOAD_TEXTS[random.nextInt(PAYLOAD_TEXTS.length)]);
            return utf8(crlf(csv(f)));
        }
        if (kind < 66) {
            List<String> f = validFields();
            int n = 1 + random.nextInt(f.size() - 1);
            for (int i = 0; i < n; i++) {
                f.set(1 + random.nextInt(f.size() - 1), "");
            }
            return utf8(crlf(csv(f)));
        }
        if (kind < 69) {
            return utf8(csv(oversized()));
        }
        if (kind < 77) {
            return notUtf8(utf8(crlf(csv(validFields()))));
        }
        if (kind < 82) {
            return randomBytes();
        }
        if (kind < 87) {
            return randomAscii();
        }
        if (kind < 94) {
            String[] blank = {"", " ", "\t", "\r", "  \r", "# a comment", "#snapshot", "#,R1,a", ",", ",,,", "\"\""};
            String b = blank[random.nextInt(blank.length)];
            return random.nextInt(10) == 0 ? concat(utf8("#"), new byte[] {(byte) 0xFF, (byte) 0xFE}) : utf8(b);
        }
        // CR/LF oddities on otherwise valid lines: CR CR LF, CR first, CR between fields.
        String line = csv(validFields());
        return switch (random.nextInt(3)) {
            case 0 -> utf8(line + "\r\r");
            case 1 -> utf8("\r" + line);
            default -> {
                int at = random.nextInt(line.length() + 1);
                yield utf8(line.substring(0, at) + "\r" + line.substring(at));
            }
        };
    }

    /** One line in ten a very long line (over {@link #MAX_LINE_BYTES}), otherwise a line with one big value. */
    private List<String> oversized() {
        List<String> f = validFields();
        if (random.nextInt(10) == 0) {
            int values = MAX_LINE_BYTES / MAX_FIELD_BYTES + 1;
            for (int i = 0; i < values; i++) {
                f.add(1, "x".repeat(MAX_FIELD_BYTES));
            }
            return f;
        }
        int i = 1 + random.nextInt(f.size() - 1);
        f.set(
                i,
                switch (random.nextInt(4)) {
                    case 0 -> "v".repeat(MAX_FIELD_BYTES); // exactly the limit: fine
                    case 1 -> "v".repeat(MAX_FIELD_BYTES + 1); // one byte over
                    case 2 -> "€".repeat(MAX_FIELD_BYTES / 3 + 1); // over in UTF-8 bytes, under in chars
                    default -> "𝄞".repeat(MAX_FIELD_BYTES / 4); // surrogate pairs, exactly the limit
                });
        return f;
    }

    /** A well-formed insert: a relation of the query, values from small domains (now and then odd), a good payload. */
    private List<String> validFields() {
        List<String> f = new ArrayList<>();
        String r = relations.get(random.nextInt(relations.size()));
        f.add(r);
        int arity = query.arityOf(r);
        for (int i = 0; i < arity; i++) {
            f.add(value());
        }
        f.add(goodPayloads[random.nextInt(goodPayloads.length)]);
        return f;
    }

    private String value() {
        if (random.nextInt(12) == 0) {
            return ODD_VALUES[random.nextInt(ODD_VALUES.length)];
        }
        return "v" + random.nextInt(3);
    }

    /** Fields as CSV: quoted where needed, and now and then where not. */
    private String csv(List<String> fields) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            String v = fields.get(i);
            boolean quote = v.indexOf(',') >= 0 || v.indexOf('"') >= 0 || random.nextInt(15) == 0;
            if (quote) {
                sb.append('"').append(v.replace("\"", "\"\"")).append('"');
            } else {
                sb.append(v);
            }
        }
        return sb.toString();
    }

    /** A line ending in CR (a CRLF file) one time in four. */
    private String crlf(String line) {
        return random.nextInt(4) == 0 ? line + "\r" : line;
    }

    /** The line with a byte sequence that is never UTF-8 put at a random place. */
    private byte[] notUtf8(byte[] line) {
        byte[][] bad = {
            {(byte) 0xFF},
            {(byte) 0xC0, (byte) 0x80},
            {(byte) 0x80},
            {(byte) 0xE2, (byte) 0x82},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
            {(byte) 0xFE}
        };
        byte[] b = bad[random.nextInt(bad.length)];
        int at = random.nextInt(line.length + 1);
        // A truncated sequence at the very end of the line followed by nothing is still malformed.
        return concat(concat(Arrays.copyOfRange(line, 0, at), b), Arrays.copyOfRange(line, at, line.length));
    }

    private byte[] randomBytes() {
        int n = 1 + random.nextInt(80);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            int v;
            do {
                v = random.nextInt(256);
            } while (v == '\n');
            b[i] = (byte) v;
        }
        b[random.nextInt(n)] = (byte) 0xFF;
        if (b[0] == '#') {
            b[0] = (byte) 0xFF;
        }
        return b;
    }

    private byte[] randomAscii() {
        int n = random.nextInt(60);
        StringBuilder sb = new StringBuilder("~");
        for (int i = 0; i < n; i++) {
            sb.append((char) (0x20 + random.nextInt(0x7F - 0x20)));
        }
        return utf8(sb.toString());
    }

    // ---- What the documented formats say must happen ----

    /**
     * What {@code run} must do with input line {@code number} (from 1): skip it (blank, or '#' first), reject
     * it (not UTF-8, longer than 1 MiB, bad quoting, a field over 64 KiB, fewer than two fields, an unknown
     * relation, the wrong arity, a payload that does not parse), or insert it. One trailing CR is dropped;
     * a byte-order mark starting line 1 is skipped.
     */
    public Expected runExpects(byte[] raw, long number) {
        int from = number == 1 && startsWithBom(raw) ? 3 : 0;
        if (raw.length > from && raw[from] == '#') {
            return Expected.skip();
        }
        if (raw.length > MAX_LINE_BYTES) {
            return Expected.reject("line longer than");
        }
        int to = raw.length > from && raw[raw.length - 1] == '\r' ? raw.length - 1 : raw.length;
        String text = strictUtf8(raw, from, to);
        if (text == null) {
            return Expected.reject("not valid UTF-8");
        }
        if (text.isBlank()) {
            return Expected.skip();
        }
        List<String> fields = new ArrayList<>();
        String bad = split(text, fields);
        if (bad != null) {
            return Expected.reject(bad);
        }
        for (String f : fields) {
            if (f.getBytes(StandardCharsets.UTF_8).length > MAX_FIELD_BYTES) {
                return Expected.reject("is longer than " + MAX_FIELD_BYTES + " bytes");
            }
        }
        if (fields.size() < 2) {
            return Expected.reject("one field");
        }
        String relation = fields.get(0);
        if (!relations.contains(relation)) {
            return Expected.reject("unknown relation");
        }
        if (fields.size() - 2 != query.arityOf(relation)) {
            return Expected.reject("wrong arity");
        }
        String payload = fields.get(fields.size() - 1);
        if (!parses(payload)) {
            return Expected.reject("unparsable " + semiring.name() + " payload");
        }
        return new Expected(Fate.INSERT, null, new Insert(relation, fields.subList(1, fields.size() - 1), payload));
    }

    /** The text a dead letter of {@code run} keeps of input line {@code number}: lenient UTF-8, CR and BOM dropped. */
    public static String deadLetterText(byte[] raw, long number) {
        int from = number == 1 && startsWithBom(raw) ? 3 : 0;
        if (raw.length > MAX_LINE_BYTES) {
            return new String(raw, from, Math.max(0, KEPT_PREFIX_BYTES - from), StandardCharsets.UTF_8);
        }
        int to = raw.length > from && raw[raw.length - 1] == '\r' ? raw.length - 1 : raw.length;
        return new String(raw, from, to - from, StandardCharsets.UTF_8);
    }

    /**
     * What the Kafka CSV parser (one topic, the relation first) must do with a record's value, a leading
     * byte-order mark skipped: reject it (not UTF-8, empty, a line break inside after one trailing LF or CRLF
     * is dropped, '#' first but not the control record, bad quoting, an unknown relation, neither arity nor
     * arity + 1 fields after it, a field over 64 KiB of UTF-8, a payload that does not parse), take it as a snapshot request
     * ({@code #snapshot}), or insert it (without a payload field the payload is the semiring's one).
     */
    public Expected kafkaExpects(byte[] value) {
        String text = strictUtf8(value, startsWithBom(value) ? 3 : 0, value.length);
        if (text == null) {
            return Expected.reject("not valid UTF-8");
        }
        if (text.endsWith("\r\n")) {
            text = text.substring(0, text.length() - 2);
        } else if (text.endsWith("\n")) {
            text = text.substring(0, text.length() - 1);
        }
        if (text.indexOf('\r') >= 0 || text.indexOf('\n') >= 0) {
            return Expected.reject("line break");
        }
        if (text.isEmpty()) {
            return Expected.reject("empty");
        }
        if (text.equals("#snapshot")) {
            return new Expected(Fate.SNAPSHOT, null, null);
        }
        if (text.charAt(0) == '#') {
            return Expected.reject("unknown control record");
        }
        List<String> fields = new ArrayList<>();
        String bad = split(text, fields);
        if (bad != null) {
            return Expected.reject(bad);
        }
        for (String f : fields) {
            if (f.getBytes(StandardCharsets.UTF_8).length > MAX_FIELD_BYTES) {
                return Expected.reject("is longer than " + MAX_FIELD_BYTES + " bytes");
            }
        }
        String relation = fields.get(0);
        if (!relations.contains(relation)) {
            return Expected.reject("unknown relation");
        }
        int arity = query.arityOf(relation);
        int rest = fields.size() - 1;
        if (rest == arity) {
            return new Expected(Fate.INSERT, null, new Insert(relation, fields.subList(1, fields.size()), null));
        }
        if (rest != arity + 1) {
            return Expected.reject("wrong arity");
        }
        String payload = fields.get(fields.size() - 1);
        if (!parses(payload)) {
            return Expected.reject("payload");
        }
        return new Expected(Fate.INSERT, null, new Insert(relation, fields.subList(1, fields.size() - 1), payload));
    }

    private boolean parses(String payload) {
        try {
            semiring.parse(payload);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Splits one line into RFC 4180 fields (a quoted field may hold commas and "" for a quote, and cannot
     * span lines); returns the problem's key words, or null.
     */
    public static String split(String line, List<String> out) {
        out.clear();
        int i = 0;
        int n = line.length();
        while (true) {
            StringBuilder f = new StringBuilder();
            if (i < n && line.charAt(i) == '"') {
                i++;
                while (true) {
                    if (i == n) {
                        return "quot";
                    }
                    char c = line.charAt(i++);
                    if (c == '"') {
                        if (i < n && line.charAt(i) == '"') {
                            f.append('"');
                            i++;
                            continue;
                        }
                        break;
                    }
                    f.append(c);
                }
                if (i < n && line.charAt(i) != ',') {
                    return "quot";
                }
            } else {
                while (i < n && line.charAt(i) != ',') {
                    if (line.charAt(i) == '"') {
                        return "quot";
                    }
                    f.append(line.charAt(i++));
                }
            }
            out.add(f.toString());
            if (i == n) {
                return null;
            }
            i++;
        }
    }

    /** Strict UTF-8, or null if the bytes are not UTF-8. */
    static String strictUtf8(byte[] b, int from, int to) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, from, to - from))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static boolean startsWithBom(byte[] raw) {
        return raw.length >= 3 && (raw[0] & 0xFF) == 0xEF && (raw[1] & 0xFF) == 0xBB && (raw[2] & 0xFF) == 0xBF;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
