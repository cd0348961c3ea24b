package io.flinkivm.flink.sql;

import java.io.Serializable;
import java.util.List;

/**
 * A table the SQL front end resolves names against: its name and its columns, in order. Column
 * names are case-sensitive, as in Flink SQL.
 */
public record SqlTable(String name, List<Column> columns) implements Serializable {

    /** A column: its name and type. */
    public record Column(String name, SqlType type) implements Serializable {}

    public SqlTable {
        columns = List.copyOf(columns);
        for (int i = 0; i < columns.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (columns.get(i).name().equals(columns.get(j).name())) {
                    throw new IllegalArgumentException("table " + name + " has two columns named "
                            + columns.get(i).name());
                }
            }
        }
    }

    /** The index of the column called {@code column}, or -1. */
    public int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(column)) {
                return i;
            }
        }
        return -1;
    }

    /** The column names, comma-separated, for messages. */
    String columnList() {
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
                    .append(columns.get(i).type());
        }
        return sb.append(')').toString();
    }
}
