package io.flinkivm.examples.kafka;

import java.io.Serializable;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The type a column of change events' rows is declared with in {@code --columns R=price:DECIMAL(10,2)}:
 * how its JSON value becomes a tuple value ({@link ColumnValues}). STRING takes the value as its text (as a
 * column without a type); BIGINT takes a whole number; DECIMAL(p, s) a decimal with at most s decimal places
 * and p digits, written with exactly s, which also reads Debezium's encodings of DECIMAL without a schema.
 *
 * @param precision DECIMAL: its digits; else 0
 * @param scale DECIMAL: its digits after the point; else 0
 */
record ColumnType(Kind kind, int precision, int scale) implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final Pattern DECIMAL =
            Pattern.compile("(?:DECIMAL|NUMERIC)\\s*\\(\\s*(\\d{1,2})\\s*(?:,\\s*(\\d{1,2})\\s*)?\\)");

    /** What a declared type can be. */
    enum Kind {
        STRING,
        BIGINT,
        DECIMAL
    }

    static final ColumnType STRING = new ColumnType(Kind.STRING, 0, 0);
    static final ColumnType BIGINT = new ColumnType(Kind.BIGINT, 0, 0);

    /**
     * The type named by {@code text}: STRING, BIGINT, DECIMAL(p) or DECIMAL(p, s) (also NUMERIC), any case.
     *
     * @throws IllegalArgumentException naming the types there are
     */
    static ColumnType parse(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        if (t.equals("STRING")) {
            return STRING;
        }
        if (t.equals("BIGINT")) {
            return BIGINT;
        }
        Matcher m = DECIMAL.matcher(t);
        if (m.matches()) {
            int p = Integer.parseInt(m.group(1));
            int s = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
            if (p < 1 || p > 38 || s > p) {
                throw new IllegalArgumentException(
                        "DECIMAL(p, s) needs 1 <= p <= 38 and s <= p, got '" + text.trim() + "'");
            }
            return new ColumnType(Kind.DECIMAL, p, s);
        }
        throw new IllegalArgumentException(
                "unknown column type '" + text.trim() + "'; the types are STRING, BIGINT and DECIMAL(p, s)");
    }

    @Override
    public String toString() {
        return kind == Kind.DECIMAL ? "DECIMAL(" + precision + ", " + scale + ")" : kind.name();
    }
}
