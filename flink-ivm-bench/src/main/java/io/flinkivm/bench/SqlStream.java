package io.flinkivm.bench;

import io.flinkivm.examples.tables.GeneratedTable;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;

/**
 * The rows of a SQL dataset's tables as one stream: every table's rows, interleaved by a shuffle
 * seeded with the seed (so a row may come before the row its key refers to, as in a real stream), the
 * first n of them. Every system reads the same stream. Immutable once built.
 */
final class SqlStream {
    private final List<GeneratedTable> tables;
    private final List<Row> rows;
    private final List<Integer> tableOf;
    private final String label;
    private final long seed;
    private final List<RowData> internal;

    private SqlStream(List<GeneratedTable> tables, List<Row> rows, List<Integer> tableOf, String label, long seed) {
        this.tables = tables;
        this.rows = rows;
        this.tableOf = tableOf;
        this.label = label;
        this.seed = seed;
        this.internal = binary(tables, rows, tableOf);
    }

    /**
     * The first {@code n} rows of {@code generated}'s tables in an order shuffled with {@code seed}; the
     * tables of the stream keep their names, types and keys, without rows.
     *
     * @param label the stream's data, the {@code distribution} column of results.csv (e.g. {@code tpch})
     * @throws IllegalArgumentException if the tables have fewer than {@code n} rows in all
     */
    static SqlStream interleave(List<GeneratedTable> generated, int n, String label, long seed) {
        List<Row> all = new ArrayList<>();
        List<Integer> table = new ArrayList<>();
        List<GeneratedTable> schemas = new ArrayList<>();
        for (int t = 0; t < generated.size(); t++) {
            all.addAll(generated.get(t).rows());
            table.addAll(Collections.nCopies(generated.get(t).rows().size(), t));
            schemas.add(generated.get(t).withRows(List.of()));
        }
        if (all.size() < n) {
            throw new IllegalArgumentException("the tables have " + all.size() + " rows, fewer than " + n);
        }
        // One permutation for both lists: the same seed shuffles them alike.
        Collections.shuffle(all, new Random(seed));
        Collections.shuffle(table, new Random(seed));
        return new SqlStream(
                List.copyOf(schemas), List.copyOf(all.subList(0, n)), List.copyOf(table.subList(0, n)), label, seed);
    }

    /**
     * The first {@code n} rows of {@code generated}'s tables in the order of their event time (each table's
     * {@link GeneratedTable#eventTime()} column; ties in the tables' order), as a source that reads its
     * events as they happened gives them; the tables keep their names, types, keys and watermarks, without
     * rows.
     *
     * @throws IllegalArgumentException if a table has no event time, or the tables have fewer than
     *     {@code n} rows in all
     */
    static SqlStream inEventOrder(List<GeneratedTable> generated, int n, String label, long seed) {
        List<Row> all = new ArrayList<>();
        List<Integer> table = new ArrayList<>();
        List<LocalDateTime> times = new ArrayList<>();
        List<GeneratedTable> schemas = new ArrayList<>();
        for (int t = 0; t < generated.size(); t++) {
            GeneratedTable g = generated.get(t);
            if (g.eventTime() == null) {
                throw new IllegalArgumentException("table " + g.name() + " has no event time to order its rows by");
            }
            int column = g.columnNames().indexOf(g.eventTime().column());
            for (Row r : g.rows()) {
                all.add(r);
                table.add(t);
                times.add((LocalDateTime) r.getField(column));
            }
            schemas.add(g.withRows(List.of()));
        }
        if (all.size() < n) {
            throw new IllegalArgumentException("the tables have " + all.size() + " rows, fewer than " + n);
        }
        Integer[] order = new Integer[all.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparing(times::get));
        List<Row> rows = new ArrayList<>(n);
        List<Integer> tables = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rows.add(all.get(order[i]));
            tables.add(table.get(order[i]));
        }
        return new SqlStream(List.copyOf(schemas), List.copyOf(rows), List.copyOf(tables), label, seed);
    }

    int size() {
        return rows.size();
    }

    /** The tables, without rows, in the order of their indices. */
    List<GeneratedTable> tables() {
        return tables;
    }

    /** The rows in stream order (for {@link IndexedInput}). */
    List<Row> rows() {
        return rows;
    }

    /**
     * The rows in stream order as Flink's internal binary rows ({@code BinaryRowData}: one byte array
     * per row, strings as UTF-8), the form rows take in Flink after a format has decoded them and after
     * every network exchange. Made with the stream, before any timed run: so that no job pays for the
     * conversion of the bench's Java rows (a {@code Row} to {@code RowData} conversion that encodes every
     * string, and its copies between chained operators, took three quarters of the task CPU of both
     * systems), and so that the garbage collector has moved them out of the young generation (the
     * harness's {@code System.gc()} before each run) before a job starts.
     */
    List<RowData> internalRows() {
        return internal;
    }

    private static List<RowData> binary(List<GeneratedTable> tables, List<Row> rows, List<Integer> tableOf) {
        List<DataStructureConverter<Object, Object>> converters = new ArrayList<>();
        List<RowDataSerializer> serializers = new ArrayList<>();
        for (GeneratedTable t : tables) {
            DataStructureConverter<Object, Object> c = DataStructureConverters.getConverter(t.rowType());
            c.open(SqlStream.class.getClassLoader());
            converters.add(c);
            serializers.add(new RowDataSerializer((RowType) t.rowType().getLogicalType()));
        }
        List<RowData> out = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            int t = tableOf.get(i);
            RowData row = (RowData) converters.get(t).toInternal(rows.get(i));
            out.add(serializers.get(t).toBinaryRow(row).copy());
        }
        return Collections.unmodifiableList(out);
    }

    /** Per row in stream order, the index of its table in {@link #tables()} (for {@link IndexedInput}). */
    List<Integer> tableOf() {
        return tableOf;
    }

    /** The rows of table {@code t} in this stream. */
    long rowsOf(int t) {
        return tableOf.stream().filter(i -> i == t).count();
    }

    String label() {
        return label;
    }

    long seed() {
        return seed;
    }
}
