package io.flinkivm.bench;

import io.flinkivm.core.query.ChangeKind;
import io.flinkivm.core.query.ConjunctiveQuery;
import io.flinkivm.core.query.QueryParser;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.examples.tables.GeneratedTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * A datalog workload's stream as the tables its Flink SQL peers read: one table per relation of the
 * query, named after it, with the columns {@code c1..ck} ({@code BIGINT}, or {@code STRING} where some
 * record of the relation has text in that position) and the payload {@code p BIGINT}, with the
 * primary key the workload declares ({@link Workload#primaryKeys()}; its columns {@code NOT NULL}); and each
 * record of the stream as Flink's internal binary row ({@code BinaryRowData}) of its relation's table,
 * with the record's kind. Built once per stream, before the stream's timed runs, as flink-ivm's input
 * records are ({@link InsertStream#inputRecords()}): the form a table's rows have once a format has
 * decoded them, so that neither system converts its input inside the timed job.
 */
final class RelationTables {
    private static RelationTables last;
    private static InsertStream lastStream;
    private static String lastQuery;

    private final ConjunctiveQuery query;
    private final InsertStream stream;
    private final List<GeneratedTable> tables;
    private final Map<String, Integer> tableIndex = new HashMap<>();
    private final List<boolean[]> text;
    private final List<RowData> rows;
    private final List<Integer> tableOf;

    private RelationTables(ConjunctiveQuery query, InsertStream stream, Map<String, List<Integer>> keys) {
        this.query = query;
        this.stream = stream;
        List<String> relations = query.relations();
        for (int t = 0; t < relations.size(); t++) {
            tableIndex.put(relations.get(t), t);
        }
        this.text = columnTypes(query, stream, tableIndex);
        List<GeneratedTable> schemas = new ArrayList<>();
        for (int t = 0; t < relations.size(); t++) {
            schemas.add(schema(relations.get(t), text.get(t), keys.getOrDefault(relations.get(t), List.of())));
        }
        this.tables = List.copyOf(schemas);
        List<RowDataSerializer> serializers = new ArrayList<>();
        for (GeneratedTable t : tables) {
            serializers.add(new RowDataSerializer((RowType) t.rowType().getLogicalType()));
        }
        List<RowData> out = new ArrayList<>(stream.size());
        List<Integer> table = new ArrayList<>(stream.size());
        for (int i = 0; i < stream.size(); i++) {
            int t = index(stream.relation(i));
            Tuple tuple = stream.tuple(i);
            boolean[] isText = text.get(t);
            GenericRowData row = new GenericRowData(rowKind(stream.kind(i)), tuple.arity() + 1);
            for (int j = 0; j < tuple.arity(); j++) {
                Object v = tuple.get(j);
                row.setField(j, isText[j] ? StringData.fromString((String) v) : v);
            }
            row.setField(tuple.arity(), stream.payload(i));
            RowData binary = serializers.get(t).toBinaryRow(row).copy();
            binary.setRowKind(row.getRowKind());
            out.add(binary);
            table.add(t);
        }
        this.rows = Collections.unmodifiableList(out);
        this.tableOf = Collections.unmodifiableList(table);
    }

    /**
     * The tables of {@code stream}, whose records are inserts (and changes) into {@code query}'s
     * relations, with the primary keys {@code keys} (per relation, 0-based columns).
     *
     * @throws IllegalArgumentException if a value is neither a {@code Long} nor a {@code String}, a
     *     relation's column holds both, a record's relation is not in the query, or a key names a column
     *     the relation does not have
     */
    static RelationTables of(ConjunctiveQuery query, InsertStream stream, Map<String, List<Integer>> keys) {
        return new RelationTables(query, stream, keys);
    }

    /**
     * The tables of {@code workload}'s {@code stream}: built on the first call for a stream and kept
     * for the last stream asked for, so that every Flink SQL system on it reads the same rows.
     */
    static synchronized RelationTables of(Workload workload, InsertStream stream) {
        if (last == null || lastStream != stream || !lastQuery.equals(workload.query())) {
            last = null; // release the previous stream's rows before building the next
            last = of(QueryParser.parse(workload.query()), stream, workload.primaryKeys());
            lastStream = stream;
            lastQuery = workload.query();
        }
        return last;
    }

    /** Forgets the kept tables (their rows are then garbage once no job reads them). */
    static synchronized void release() {
        last = null;
        lastStream = null;
        lastQuery = null;
    }

    private static List<boolean[]> columnTypes(
            ConjunctiveQuery query, InsertStream stream, Map<String, Integer> tableIndex) {
        List<boolean[]> text = new ArrayList<>();
        List<boolean[]> number = new ArrayList<>();
        for (String r : query.relations()) {
            text.add(new boolean[query.arityOf(r)]);
            number.add(new boolean[query.arityOf(r)]);
        }
        for (int i = 0; i < stream.size(); i++) {
            Integer t = tableIndex.get(stream.relation(i));
            if (t == null) {
                throw new IllegalArgumentException("record " + i + " is of relation " + stream.relation(i) + ", which "
                        + query + " does not name");
            }
            Tuple tuple = stream.tuple(i);
            if (tuple.arity() != text.get(t).length) {
                throw new IllegalArgumentException("record " + i + " " + stream.relation(i) + tuple + " has arity "
                        + tuple.arity() + ", the query's relation " + text.get(t).length);
            }
            for (int j = 0; j < tuple.arity(); j++) {
                Object v = tuple.get(j);
                if (v instanceof String) {
                    text.get(t)[j] = true;
                } else if (v instanceof Long) {
                    number.get(t)[j] = true;
                } else {
                    throw new IllegalArgumentException(
                            "the SQL peer takes Long and String values only, got " + v + " in " + tuple);
                }
                if (text.get(t)[j] && number.get(t)[j]) {
                    throw new IllegalArgumentException("column " + (j + 1) + " of " + stream.relation(i)
                            + " holds both numbers and text; the SQL peer needs one type per column");
                }
            }
        }
        return text;
    }

    /** The table of {@code relation}: its key's columns {@code NOT NULL} (as a key needs), the others nullable. */
    private static GeneratedTable schema(String relation, boolean[] text, List<Integer> key) {
        for (int j : key) {
            if (j < 0 || j >= text.length) {
                throw new IllegalArgumentException(
                        "the key of " + relation + " names column " + j + " of " + text.length);
            }
        }
        List<DataTypes.Field> fields = new ArrayList<>();
        for (int j = 0; j < text.length; j++) {
            DataType type = text[j] ? DataTypes.STRING() : DataTypes.BIGINT();
            fields.add(DataTypes.FIELD(column(j), key.contains(j) ? type.notNull() : type));
        }
        fields.add(DataTypes.FIELD(QueryToSql.PAYLOAD, DataTypes.BIGINT()));
        DataType rowType = DataTypes.ROW(fields.toArray(DataTypes.Field[]::new)).notNull();
        return new GeneratedTable(
                relation, rowType, key.stream().map(RelationTables::column).toList(), List.of());
    }

    /** The name of value column {@code j} (0-based): {@code c1, c2, ...}. */
    static String column(int j) {
        return "c" + (j + 1);
    }

    static RowKind rowKind(ChangeKind kind) {
        return switch (kind) {
            case INSERT -> RowKind.INSERT;
            case DELETE -> RowKind.DELETE;
            case UPDATE_BEFORE -> RowKind.UPDATE_BEFORE;
            case UPDATE_AFTER -> RowKind.UPDATE_AFTER;
        };
    }

    ConjunctiveQuery query() {
        return query;
    }

    /** The stream whose records these tables hold. */
    InsertStream stream() {
        return stream;
    }

    /** One table per relation, in the query's order of relations, without rows. */
    List<GeneratedTable> tables() {
        return tables;
    }

    /** The table index of {@code relation}. */
    int index(String relation) {
        Integer t = tableIndex.get(relation);
        if (t == null) {
            throw new IllegalArgumentException("relation " + relation + " is not in " + query);
        }
        return t;
    }

    /** Whether value column {@code j} (0-based) of {@code relation}'s table is {@code STRING}. */
    boolean isText(String relation, int j) {
        return text.get(index(relation))[j];
    }

    /** The stream's records in order, each its table's binary row with the record's kind. */
    List<RowData> rows() {
        return rows;
    }

    /** Per record, the index of its table. */
    List<Integer> tableOf() {
        return tableOf;
    }
}
