package io.flinkivm.sql;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

/** Insert-only and changelog tables for SQL tests, and the final results of flink-ivm views and of Flink SQL. */
final class SqlTestTables {
    private SqlTestTables() {}

    static StreamExecutionEnvironment environment(int parallelism) {
        Configuration c = new Configuration();
        c.setString("pipeline.generic-types", "false");
        c.setString("parallelism.default", String.valueOf(parallelism));
        return StreamExecutionEnvironment.getExecutionEnvironment(c);
    }

    /** Registers {@code rows} (of {@code rowType}) as the insert-only table {@code name}. */
    static void register(
            StreamTableEnvironment tEnv,
            StreamExecutionEnvironment env,
            String name,
            DataType rowType,
            List<Row> rows) {
        tEnv.createTemporaryView(name, tEnv.fromDataStream(env.fromData(rows, ExternalTypeInfo.<Row>of(rowType))));
    }

    /**
     * Registers the changelog {@code rows} (of {@code rowType}, each with its {@link RowKind}) as the
     * table {@code name}, read in order by one source subtask.
     */
    static void registerChangelog(
            StreamTableEnvironment tEnv,
            StreamExecutionEnvironment env,
            String name,
            DataType rowType,
            List<Row> rows) {
        tEnv.createTemporaryView(
                name,
                tEnv.fromChangelogStream(
                        env.fromData(rows, ExternalTypeInfo.<Row>of(rowType)).setParallelism(1),
                        Schema.newBuilder().fromRowDataType(rowType).build()));
    }

    /** The final result of a changelog (Flink SQL's or a flink-ivm view's), as a multiset of normalized rows. */
    static List<List<Object>> changelogResult(Iterator<Row> rows) {
        Map<List<Object>, Integer> counts = new HashMap<>();
        while (rows.hasNext()) {
            Row r = rows.next();
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < r.getArity(); i++) {
                values.add(normalize(r.getField(i)));
            }
            int delta = r.getKind() == RowKind.INSERT || r.getKind() == RowKind.UPDATE_AFTER ? 1 : -1;
            counts.merge(values, delta, Integer::sum);
        }
        List<List<Object>> out = new ArrayList<>();
        counts.forEach((row, n) -> {
            if (n < 0) {
                throw new IllegalStateException("row " + row + " retracted more often than inserted");
            }
            for (int i = 0; i < n; i++) {
                out.add(row);
            }
        });
        return out;
    }

    /** Numbers as plain BigDecimals without trailing zeros (SUM of INT is INT in Flink SQL, BIGINT in flink-ivm). */
    static Object normalize(Object v) {
        if (v instanceof BigDecimal d) {
            return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        return v;
    }
}
