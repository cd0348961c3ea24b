package io.flinkivm.examples.kafka;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * A column of change events' rows that is a value of its relation ({@code --columns}), with the type it was
 * declared with, or null for none (its text, as written).
 */
record RowColumn(String name, ColumnType type) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Columns without a declared type. */
    static List<RowColumn> named(String... names) {
        List<RowColumn> out = new ArrayList<>();
        for (String n : names) {
            out.add(new RowColumn(n, null));
        }
        return List.copyOf(out);
    }

    /**
     * The columns of {@code COL[:TYPE],...}, e.g. {@code id,price:DECIMAL(10,2)}: split at the commas outside
     * parentheses; an empty name is returned as such (for the caller's message).
     *
     * @throws IllegalArgumentException for an unknown type
     */
    static List<RowColumn> parseList(String text) {
        List<RowColumn> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ',';
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth <= 0) {
                out.add(parse(text.substring(start, i)));
                start = i + 1;
            }
        }
        return out;
    }

    private static RowColumn parse(String spec) {
        int colon = spec.indexOf(':');
        if (colon < 0) {
            return new RowColumn(spec.trim(), null);
        }
        return new RowColumn(spec.substring(0, colon).trim(), ColumnType.parse(spec.substring(colon + 1)));
    }
}
