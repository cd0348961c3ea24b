package io.flinkivm.core.engine.keys;

import io.flinkivm.core.query.Tuple;
import org.apache.flink.annotation.Internal;

/**
 * A row that breaks a key the plan relies on: it has the key value of the row stored under it, with
 * other values; or, where the key's relation is absorbed, any second row with a stored key value. Under
 * deletes also a delete (or an update's old row) of a row that the stage does not hold under its key
 * value (it broke the key when it came). It is rejected; nothing changes.
 *
 * @param relation the key's relation
 * @param key the key as the query writes it, e.g. {@code orders(ok)}
 * @param columns the key's columns (from 0)
 * @param row the rejected row
 * @param rowDropped whether the query's selection (or the table's filter) drops the rejected row
 * @param stored the row stored under the same key value (null for a delete of a key value that holds
 *     none)
 * @param storedDropped whether the stored row is the mark of a dropped row
 * @param absorbed whether the relation is absorbed (then an identical second row is rejected too)
 * @param retraction whether the rejected row is a delete or an update's old row
 */
@Internal
public record KeyViolation(
        String relation,
        String key,
        int[] columns,
        Tuple row,
        boolean rowDropped,
        Tuple stored,
        boolean storedDropped,
        boolean absorbed,
        boolean retraction) {

    /** A row with other values than the stored one, neither dropped, of a relation that is not absorbed. */
    public KeyViolation(String relation, String key, int[] columns, Tuple row, Tuple stored) {
        this(relation, key, columns, row, false, stored, false, false, false);
    }

    /**
     * E.g. "orders(1, 8) breaks KEY orders(ok) (column 0): orders(1, 7) is stored under the same key
     * value (1); the row is rejected and changes nothing".
     */
    public String message() {
        StringBuilder cols = new StringBuilder();
        for (int i = 0; i < columns.length; i++) {
            cols.append(i == 0 ? "" : ", ").append(columns[i]);
        }
        String dropped = " (dropped by the query's selection or filter)";
        if (retraction) {
            String holds = stored == null
                    ? "no row under its key value " + row.project(columns)
                            + " (it was deleted, or rejected when it came)"
                    : stored.equals(row) && storedDropped == rowDropped
                            ? "it with less than the delete takes away"
                            : relation + stored + (storedDropped ? dropped : "") + " under its key value "
                                    + row.project(columns) + " (a row that broke the key was rejected when it came)";
            return "a delete of " + relation + row + (rowDropped ? dropped : "") + ": the key stage of KEY " + key
                    + " holds " + holds + "; the delete is rejected and changes nothing";
        }
        return relation + row + (rowDropped ? dropped : "") + " breaks KEY " + key + " (column"
                + (columns.length == 1 ? " " : "s ") + cols + "): " + relation + stored + (storedDropped ? dropped : "")
                + " is stored under the same key value " + stored.project(columns)
                + (absorbed
                        ? ", and " + relation + " is absorbed into the rows that look it up, so a key value has one"
                                + " row, identical or not"
                        : "")
                + "; the row is rejected and changes nothing";
    }

    @Override
    public String toString() {
        return message();
    }
}
