package io.flinkivm.examples.tables;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;

/**
 * A generated table: its name, its Flink SQL row type, its primary key (which the generated rows
 * keep: no two rows share a key) and its rows, as Flink's Table API gives them (Long for BIGINT,
 * Integer for INT, BigDecimal for DECIMAL, LocalDate for DATE, LocalDateTime for TIMESTAMP, String).
 *
 * @param rowType a {@code ROW} type; the key's columns are {@code NOT NULL}
 * @param primaryKey the key's columns, in order; empty for a table without one
 * @param eventTime its event-time attribute and watermark, or null for a table without one
 */
public record GeneratedTable(
        String name, DataType rowType, List<String> primaryKey, List<Row> rows, EventTime eventTime) {
    private static final Pattern PLAIN = Pattern.compile("[a-z_][a-z0-9_]*");

    /**
     * An event-time attribute, a {@code TIMESTAMP(3)} column, with a watermark that lags its largest value
     * by {@code delay}, an interval literal such as {@code INTERVAL '5' SECOND}.
     */
    public record EventTime(String column, String delay) {}

    /** A table without an event-time attribute. */
    public GeneratedTable(String name, DataType rowType, List<String> primaryKey, List<Row> rows) {
        this(name, rowType, primaryKey, rows, null);
    }

    public GeneratedTable {
        Objects.requireNonNull(name, "name");
        if (!(rowType.getLogicalType() instanceof RowType row)) {
            throw new IllegalArgumentException("table " + name + " needs a ROW type, got " + rowType);
        }
        primaryKey = List.copyOf(primaryKey);
        for (String k : primaryKey) {
            if (!row.getFieldNames().contains(k)) {
                throw new IllegalArgumentException("the primary key of " + name + " names " + k + ", not a column");
            }
            if (row.getTypeAt(row.getFieldIndex(k)).isNullable()) {
                throw new IllegalArgumentException("primary-key column " + k + " of " + name + " must be NOT NULL");
            }
        }
        rows = List.copyOf(rows);
        if (eventTime != null && !row.getFieldNames().contains(eventTime.column())) {
            throw new IllegalArgumentException(
                    "the event time of " + name + " names " + eventTime.column() + ", not a column");
        }
    }

    /** The columns' names, in order. */
    public List<String> columnNames() {
        return ((RowType) rowType.getLogicalType()).getFieldNames();
    }

    /** The table's schema for {@code fromDataStream}: its columns, its primary key and its watermark. */
    public Schema schema() {
        Schema.Builder schema = Schema.newBuilder().fromRowDataType(rowType);
        if (!primaryKey.isEmpty()) {
            schema.primaryKey(primaryKey);
        }
        if (eventTime != null) {
            schema.watermark(eventTime.column(), watermarkExpression());
        }
        return schema.build();
    }

    /** The type of its rows in a DataStream. */
    public TypeInformation<Row> typeInfo() {
        return ExternalTypeInfo.of(rowType);
    }

    /**
     * The table as the command line's {@code --schema} writes it, e.g. {@code orders(o_orderkey BIGINT NOT
     * NULL, o_custkey BIGINT, PRIMARY KEY (o_orderkey) NOT ENFORCED)}, then its {@code WATERMARK FOR ...}; a
     * name other than lower-case letters, digits and underscores is in backticks.
     */
    public String schemaText() {
        RowType row = (RowType) rowType.getLogicalType();
        List<String> parts = new ArrayList<>();
        for (RowType.RowField f : row.getFields()) {
            parts.add(identifier(f.getName()) + " " + f.getType().asSummaryString());
        }
        if (!primaryKey.isEmpty()) {
            parts.add("PRIMARY KEY ("
                    + String.join(
                            ", ",
                            primaryKey.stream().map(GeneratedTable::identifier).toList()) + ") NOT ENFORCED");
        }
        if (eventTime != null) {
            parts.add("WATERMARK FOR " + identifier(eventTime.column()) + " AS " + watermarkExpression());
        }
        return identifier(name) + "(" + String.join(", ", parts) + ")";
    }

    /** This table with event-time attribute {@code column} and a watermark {@code delay} behind it. */
    public GeneratedTable withEventTime(String column, String delay) {
        return new GeneratedTable(name, rowType, primaryKey, rows, new EventTime(column, delay));
    }

    private String watermarkExpression() {
        return identifier(eventTime.column()) + " - " + eventTime.delay();
    }

    /** The tables' {@link #schemaText()}s joined by {@code ";\n"}, a {@code --schema} value. */
    public static String schemaText(List<GeneratedTable> tables) {
        return String.join(
                ";\n", tables.stream().map(GeneratedTable::schemaText).toList());
    }

    /**
     * Registers the table in {@code tEnv} under its name: its rows as a bounded insert-only stream of
     * {@code env} ({@code env.fromData}), with its primary key.
     */
    public void register(StreamTableEnvironment tEnv, StreamExecutionEnvironment env) {
        tEnv.createTemporaryView(name, tEnv.fromDataStream(env.fromData(rows, typeInfo()), schema()));
    }

    /** This table with other rows (of the same type). */
    public GeneratedTable withRows(List<Row> other) {
        return new GeneratedTable(name, rowType, primaryKey, other, eventTime);
    }

    private static String identifier(String name) {
        return PLAIN.matcher(name).matches() ? name : "`" + name.replace("`", "``") + "`";
    }
}
