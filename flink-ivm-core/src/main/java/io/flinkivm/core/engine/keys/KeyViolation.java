package io.flinkivm.core.engine.keys;

import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/**
 * A row that breaks a key the plan relies on: it has the key value of the row stored under it, with
 * other values. It is rejected; nothing changes.
 *
 * @param relation the key's relation
 * @param key the key as the query writes it, e.g. {@code orders(ok)}
 * @param columns the key's columns (from 0)
 * @param row the rejected row
 * @param stored the row stored under the same key value
 */
@Internal
public record KeyViolation(String relation, String key, int[] columns, Tuple row, Tuple stored) {
    /** E.g. "orders(1, 8) breaks KEY orders(ok) (column 0): orders(1, 7) is stored under the same key value (1)". */
    public String message() {
        StringBuilder cols = new StringBuilder();
        for (int i = 0; i < columns.length; i++) {
            cols.append(i == 0 ? "" : ", ").append(columns[i]);
        }
        return relation + row + " breaks KEY " + key + " (column" + (columns.length == 1 ? " " : "s ") + cols
                + "): " + relation + stored + " is stored under the same key value " + stored.project(columns)
                + "; the row is rejected and changes nothing";
    }

    @Override
    public String toString() {
        return message();
    }
}
