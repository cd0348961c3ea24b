package io.flinkivm.sql.translate;

import java.io.Serializable;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * A table the SQL front end resolves names against: its name, its columns in order, and its primary
 * key (column names; empty if it declares none), and its event-time attribute (the column its {@code
 * WATERMARK} is declared for; null if none). Column names are case-sensitive, as in Flink SQL.
 */
@Internal
public record SqlTable(String name, List<Column> columns, List<String> primaryKey, String timeAttribute)
        implements Serializable {

    /** A column: its name, type, and whether it may hold NULL. */
    public record Column(String name, SqlType type, boolean nullable) implements Serializable {
        /** A column that may hold NULL. */
        public Column(String name, SqlType type) {
            this(name, type, true);
        }
    }

    /** A table without a primary key. */
    public SqlTable(String name, List<Column> columns) {
        this(name, columns, List.of());
    }

    /** A table without an event-time attribute. */
    public SqlTable(String name, List<Column> columns, List<String> primaryKey) {
        this(name, columns, primaryKey, null);
    }

    public SqlTable {
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        for (int i = 0; i < columns.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (columns.get(i).name().equals(columns.get(j).name())) {
                    throw new IllegalArgumentException("table " + name + " has two columns named "
                            + columns.get(i).name());
                }
            }
        }
        for (String k : primaryKey) {
            if (indexOf(k, columns) < 0) {
                throw new IllegalArgumentException(
                        "the primary key of " + name + " names " + k + ", which is not a column");
            }
        }
        if (timeAttribute != null) {
            int t = indexOf(timeAttribute, columns);
            if (t < 0) {
                throw new IllegalArgumentException(
                        "the WATERMARK of " + name + " is for " + timeAttribute + ", which is not a column");
            }
            if (columns.get(t).type().kind() != SqlType.Kind.TIMESTAMP) {
                throw new IllegalArgumentException("the WATERMARK of " + name + " is for " + timeAttribute + ", a "
                        + columns.get(t).type() + "; an event-time attribute is a TIMESTAMP(p)");
            }
        }
    }

    /** A copy with the primary key {@code key} (column names). */
    public SqlTable withPrimaryKey(List<String> key) {
        return new SqlTable(name, columns, key, timeAttribute);
    }

    /** A copy whose event-time attribute is {@code column} (null: none). */
    public SqlTable withTimeAttribute(String column) {
        return new SqlTable(name, columns, primaryKey, column);
    }

    private static int indexOf(String column, List<Column> columns) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(column)) {
                return i;
            }
        }
        return -1;
    }

    /** The index of the column called {@code column}, or -1. */
    public int indexOf(String column) {
        return indexOf(column, columns);
    }

    /** The column names, comma-separated, for messages. */
    public String columnList() {
        StringBuilder sb = new StringBuilder();
        for (Column c : columns) {
            sb.append(sb.length() == 0 ? "" : ", ").append(c.name());
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(name).append('(');
        for (int i = 0; i < columns.size(); i++) {
            sb.append(i == 0 ? "" : ", ")
                    .append(columns.get(i).name())
                    .append(' ')
                    .append(columns.get(i).type())
                    .append(columns.get(i).nullable() ? "" : " NOT NULL");
        }
        if (!primaryKey.isEmpty()) {
            sb.append(", PRIMARY KEY (").append(String.join(", ", primaryKey)).append(')');
        }
        if (timeAttribute != null) {
            sb.append(", WATERMARK FOR ").append(timeAttribute);
        }
        return sb.append(')').toString();
    }
}
