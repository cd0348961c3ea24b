package io.flinkivm.bench;

import io.flinkivm.examples.tables.GeneratedTable;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Tables registered in a {@code StreamTableEnvironment} from prebuilt internal rows: the input of every
 * job that reads tables (Flink SQL's, and flink-ivm's {@code FlinkIvmSql.sql}). One source of the stream's
 * indices at the environment's parallelism ({@link IndexedInput}: by range, a changelog by row), and
 * chained to it one function that sends each index's row ({@code BinaryRowData}, built before the job)
 * to its table's stream: the first table's is the main output, the others side outputs. Each table is a
 * view over its stream, with its primary key: {@code fromDataStream} for inserts, {@code
 * fromChangelogStream} with every row kind for a changelog. The rows' type is Flink's internal row
 * type, whose input conversion is the identity: no row is converted inside the job.
 */
final class PrebuiltTables implements AutoCloseable {
    private final List<GeneratedTable> tables;
    private final IndexedInput<RowData> rows;
    private final IndexedInput<Integer> tableOf;
    private final IndexedInput<Long> indices;
    private final boolean changelog;

    private PrebuiltTables(
            List<GeneratedTable> tables,
            List<RowData> rows,
            List<Integer> tableOf,
            IndexedInput<Long> indices,
            boolean changelog) {
        this.tables = List.copyOf(tables);
        this.rows = IndexedInput.of(rows);
        this.tableOf = IndexedInput.of(tableOf);
        this.indices = indices;
        this.changelog = changelog;
    }

    /** A SQL dataset's stream: inserts, read by range. */
    static PrebuiltTables of(SqlStream stream) {
        return new PrebuiltTables(
                stream.tables(),
                stream.internalRows(),
                stream.tableOf(),
                IndexedInput.of(IndexedInput.indices(stream.size())),
                false);
    }

    /**
     * A datalog workload's stream as its relations' tables, read at {@code parallelism} as flink-ivm reads
     * the same stream ({@link IndexedInput#of(List, InsertStream, int)}: a changelog by row).
     */
    static PrebuiltTables of(RelationTables tables, InsertStream stream, int parallelism) {
        return new PrebuiltTables(
                tables.tables(),
                tables.rows(),
                tables.tableOf(),
                IndexedInput.of(IndexedInput.indices(stream.size()), stream, parallelism),
                stream.isChangelog());
    }

    /**
     * Registers each table in {@code tEnv} under its name, with its primary key, as the stream of its rows
     * from one source named {@code source}.
     */
    void register(StreamTableEnvironment tEnv, StreamExecutionEnvironment env, String source) {
        List<OutputTag<RowData>> tags = new ArrayList<>();
        for (GeneratedTable t : tables) {
            tags.add(new OutputTag<>("rows of " + t.name(), rowTypeInfo(t)));
        }
        SingleOutputStreamOperator<RowData> first = indices.source(env, Types.LONG, source)
                .process(new Split(rows.id(), tableOf.id(), tags), rowTypeInfo(tables.get(0)))
                .name("rows by table");
        for (int t = 0; t < tables.size(); t++) {
            DataStream<RowData> stream = t == 0 ? first : first.getSideOutput(tags.get(t));
            GeneratedTable table = tables.get(t);
            tEnv.createTemporaryView(
                    table.name(),
                    changelog
                            ? tEnv.fromChangelogStream(asRows(stream), table.schema(), ChangelogMode.all())
                            : tEnv.fromDataStream(stream, table.schema()));
        }
    }

    /**
     * The stream as {@code fromChangelogStream}'s parameter type: Flink reads the stream's own type
     * information (internal rows here) and each row's kind, whatever the declared element type.
     */
    @SuppressWarnings("unchecked") // the element type is read from the stream's TypeInformation, not from <Row>
    private static DataStream<Row> asRows(DataStream<RowData> stream) {
        return (DataStream<Row>) (DataStream<?>) stream;
    }

    /** The rows' type between the split and the tables: Flink's internal rows of the table's row type. */
    static TypeInformation<RowData> rowTypeInfo(GeneratedTable table) {
        return InternalTypeInfo.of((RowType) table.rowType().getLogicalType());
    }

    @Override
    public void close() {
        rows.close();
        tableOf.close();
        indices.close();
    }

    /** Sends the row at each index to its table's output: the main one for table 0, a side output for the others. */
    static final class Split extends ProcessFunction<Long, RowData> {
        private static final long serialVersionUID = 1L;
        private final long rowsId;
        private final long tablesId;
        private final List<OutputTag<RowData>> tags;
        private transient List<RowData> rows;
        private transient List<Integer> tables;

        Split(long rowsId, long tablesId, List<OutputTag<RowData>> tags) {
            this.rowsId = rowsId;
            this.tablesId = tablesId;
            this.tags = List.copyOf(tags);
        }

        @Override
        public void open(OpenContext context) {
            rows = IndexedInput.items(rowsId);
            tables = IndexedInput.items(tablesId);
        }

        @Override
        public void processElement(Long index, Context ctx, Collector<RowData> out) {
            int i = index.intValue();
            int t = tables.get(i);
            if (t == 0) {
                out.collect(rows.get(i));
            } else {
                ctx.output(tags.get(t), rows.get(i));
            }
        }
    }
}
