package io.flinkivm.examples.cli;

import io.flinkivm.examples.command.CliException;
import io.flinkivm.sql.rows.FlinkTables;
import io.flinkivm.sql.translate.ComputedColumn;
import io.flinkivm.sql.translate.RejectedRowException;
import io.flinkivm.sql.translate.SqlTable;
import io.flinkivm.sql.translate.SqlTranslation;
import io.flinkivm.sql.translate.TableInput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Expressions;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * {@code --sql} on the command line: the expressions of one table's row that flink-ivm leaves to Flink
 * ({@link ComputedColumn}: {@code DATE_FORMAT}, {@code JSON_VALUE}, every function of Flink's). {@link #typer}
 * types them with a Flink table environment over the tables of {@code --schema}, made when the first one is met;
 * {@link Values} holds what an embedded local Flink computed for the rows of the input, for {@code run --engine
 * flink}. The in-memory engine does not run Flink, so it refuses them ({@link #refusal}).
 */
final class FlinkExpressions {
    private FlinkExpressions() {}

    /** Types expressions over the tables of {@code schemas} as Flink does; the environment is made on first use. */
    static SqlTranslation.ExpressionTyper typer(Map<String, SqlTable> schemas) {
        SqlTranslation.ExpressionTyper[] flink = {null};
        return (path, expression) -> {
            if (flink[0] == null) {
                TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
                // Only the tables' types matter here: nothing reads them.
                schemas.forEach((name, table) -> tEnv.createTemporaryTable(
                        "`" + name.replace("`", "``") + "`",
                        TableDescriptor.forConnector("datagen")
                                .schema(Schema.newBuilder()
                                        .fromRowDataType(rowType(table, null))
                                        .build())
                                .build()));
                flink[0] = FlinkTables.typer(tEnv);
            }
            return flink[0].type(path, expression);
        };
    }

    /** The row type of {@code table}'s columns at {@code columns} (all for null), NOT NULL where the table says. */
    private static DataType rowType(SqlTable table, List<Integer> columns) {
        List<DataTypes.Field> fields = new ArrayList<>();
        for (int c = 0; c < table.columns().size(); c++) {
            if (columns != null && !columns.contains(c)) {
                continue;
            }
            SqlTable.Column column = table.columns().get(c);
            DataType type = FlinkTables.dataType(column.type());
            fields.add(DataTypes.FIELD(column.name(), column.nullable() ? type : type.notNull()));
        }
        return DataTypes.ROW(fields.toArray(new DataTypes.Field[0]));
    }

    /**
     * Why {@code --engine memory} does not run {@code sql}: the expressions Flink computes, each with its table
     * and function; null if there are none.
     */
    static String refusal(SqlTranslation sql) {
        List<String> computed = new ArrayList<>();
        for (TableInput table : sql.tables()) {
            for (ComputedColumn c : table.computedColumns()) {
                computed.add(c.function() + " (in " + c.sql() + " of table " + table.name() + ")");
            }
        }
        if (computed.isEmpty()) {
            return null;
        }
        return "--engine memory evaluates rows with flink-ivm's own functions, and " + String.join(", ", computed)
                + (computed.size() == 1 ? " is not among them" : " are not among them") + ": Flink computes "
                + (computed.size() == 1 ? "it" : "them") + " in the table's projection (explain --sql shows it);"
                + " --engine flink, the default, takes this query";
    }

    /**
     * The values an embedded local Flink computed for the rows of the input: per table with computed columns,
     * per combination of the values of the columns they read, the computed columns' values.
     */
    static final class Values {
        private final Map<String, Map<List<Object>, Object[]>> tables = new HashMap<>();
        private final Map<String, TableInput> inputs = new LinkedHashMap<>();
        private boolean computed;

        /** Records a row of {@code table} (its values, as {@link TableInput#fromText} makes them) to compute. */
        void add(TableInput table, Object[] values) {
            inputs.putIfAbsent(table.name(), table);
            tables.computeIfAbsent(table.name(), t -> new LinkedHashMap<>())
                    .putIfAbsent(arguments(table, values), null);
        }

        /**
         * Computes the values of every row added, one Flink job per table, on an embedded local Flink at
         * parallelism 1 (once: later calls do nothing).
         *
         * @throws CliException (exit code 1) if Flink fails: a function that throws on a row fails the job, as in
         *     Flink SQL
         */
        void compute() {
            if (computed) {
                return;
            }
            computed = true;
            for (TableInput table : inputs.values()) {
                Map<List<Object>, Object[]> rows = tables.get(table.name());
                try (StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1)) {
                    compute(env, table, rows);
                } catch (CliException e) {
                    throw e;
                } catch (Exception e) {
                    throw CliException.failure(
                            "Flink failed to compute the expressions of table " + table.name() + " ("
                                    + FlinkTables.reason(e) + "); a function that fails on a row fails the job, as"
                                    + " the query fails in Flink SQL",
                            e);
                }
            }
        }

        private static void compute(StreamExecutionEnvironment env, TableInput table, Map<List<Object>, Object[]> rows)
                throws Exception {
            List<Integer> read = readColumns(table);
            List<DataTypes.Field> fields = new ArrayList<>(DataType.getFields(rowType(table.schema(), read)));
            String index = "ivm$row";
            fields.add(DataTypes.FIELD(index, DataTypes.INT().notNull()));
            DataType rowType = DataTypes.ROW(fields.toArray(new DataTypes.Field[0]));
            List<List<Object>> keys = new ArrayList<>(rows.keySet());
            List<Row> data = new ArrayList<>(keys.size());
            for (int i = 0; i < keys.size(); i++) {
                Object[] row = keys.get(i).toArray(new Object[read.size() + 1]);
                row[read.size()] = i;
                data.add(Row.of(row));
            }
            StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
            Table input = tEnv.fromDataStream(env.fromData(data, ExternalTypeInfo.<Row>of(rowType)));
            List<ComputedColumn> computed = table.computedColumns();
            List<Expression> select = new ArrayList<>();
            select.add(Expressions.$(index));
            for (ComputedColumn c : computed) {
                select.add(Expressions.callSql(c.sql()).as(c.name()));
            }
            try (CloseableIterator<Row> out =
                    input.select(select.toArray(new Expression[0])).execute().collect()) {
                while (out.hasNext()) {
                    Row r = out.next();
                    Object[] values = new Object[computed.size()];
                    for (int c = 0; c < values.length; c++) {
                        values[c] = r.getField(c + 1);
                    }
                    rows.put(keys.get((Integer) r.getField(0)), values);
                }
            }
        }

        /**
         * Sets the computed columns of a row of {@code table} from the values Flink computed.
         *
         * @throws RejectedRowException if Flink computed none for it, or one not of its column's type
         */
        void fill(TableInput table, Object[] values) throws RejectedRowException {
            Map<List<Object>, Object[]> rows = tables.get(table.name());
            Object[] computed = rows == null ? null : rows.get(arguments(table, values));
            if (computed == null) {
                throw new RejectedRowException("Flink computed no value of "
                        + table.computedColumns().get(0).sql() + " for this row of " + table.name());
            }
            List<ComputedColumn> columns = table.computedColumns();
            for (int c = 0; c < computed.length; c++) {
                table.setComputed(values, columns.get(c), computed[c]);
            }
        }

        /** The columns of {@code table} that its computed columns read, in the table's order. */
        private static List<Integer> readColumns(TableInput table) {
            List<Integer> out = new ArrayList<>();
            for (int c = 0; c < table.schema().columns().size(); c++) {
                for (ComputedColumn computed : table.computedColumns()) {
                    if (computed.arguments().contains(c) && !out.contains(c)) {
                        out.add(c);
                    }
                }
            }
            return out;
        }

        /** A row's values of the columns its table's computed columns read, as Flink's Table API takes them. */
        private static List<Object> arguments(TableInput table, Object[] values) {
            List<Object> out = new ArrayList<>();
            for (int c : readColumns(table)) {
                out.add(table.javaValue(values, c));
            }
            return out;
        }
    }
}
