package io.flinkivm.examples.tpch;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.examples.tables.GeneratedTable;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.sql.FlinkIvmSql;
import io.flinkivm.sql.SqlView;
import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;

/**
 * The TPC-H revenue query written in SQL as a Flink user writes it, over the TPC-H tables of
 * {@link TpchTables} (DECIMAL prices, DATE order dates, columns the query does not use, primary keys): {@link FlinkIvmSql#sql}
 * gives the same rows as Flink SQL's own execution of the same SQL on the same tables, and as the
 * datalog example {@link TpchRevenue} (scale factor 0.005: 750 customers, 7,500 orders, ~30,000 lineitems).
 */
class TpchRevenueSqlITCase {
    private static final double SF = 0.005;

    static final String SQL = """
            SELECT o_orderkey, o_custkey, SUM(l_extendedprice * (1 - l_discount)) AS revenue
            FROM customer
            JOIN orders ON c_custkey = o_custkey
            JOIN lineitem ON l_orderkey = o_orderkey
            WHERE c_mktsegment = 'BUILDING'
            GROUP BY o_orderkey, o_custkey""";

    @Test
    void sqlViewEqualsFlinkSqlAndTheDatalogExample() throws Exception {
        Configuration config = new Configuration();
        config.setString("parallelism.default", "2");
        config.setString("pipeline.generic-types", "false");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        for (GeneratedTable t :
                TpchTables.generate(SF, List.of(TpchTables.CUSTOMER, TpchTables.ORDERS, TpchTables.LINEITEM))) {
            t.register(tEnv, env);
        }

        SqlView view = FlinkIvmSql.sql(tEnv, SQL, IvmOptions.defaults());
        assertThat(view.translation().query())
                .hasToString(
                        "Q(o_orderkey,c_custkey) :- customer(c_custkey), orders(o_orderkey,c_custkey), lineitem(o_orderkey)"
                                + " KEY customer(c_custkey), orders(o_orderkey)");
        assertThat(view.explain()).contains("where c_mktsegment = 'BUILDING'");
        assertThat(view.explain()).contains("p-hierarchical: yes");
        Map<List<Object>, Integer> ivm;
        Map<List<Object>, Integer> flinkSql;
        try (CloseableIterator<Row> a = tEnv.toChangelogStream(view.table()).collectAsync();
                CloseableIterator<Row> b =
                        tEnv.toChangelogStream(tEnv.sqlQuery(SQL)).collectAsync()) {
            env.execute("TPC-H revenue: flink-ivm's SQL view and Flink SQL");
            ivm = changelog(a);
            flinkSql = changelog(b);
        }
        Map<List<Object>, Integer> datalog = new HashMap<>();
        TpchRevenue.Outcome outcome =
                TpchRevenue.run(SF, 2, "hashmap", new PrintStream(OutputStream.nullOutputStream()));
        for (Map.Entry<Tuple, Long> e : outcome.revenue().entrySet()) {
            datalog.merge(
                    List.of(
                            e.getKey().get(0),
                            e.getKey().get(1),
                            BigDecimal.valueOf(e.getValue(), TpchRevenue.REVENUE_SCALE)
                                    .stripTrailingZeros()),
                    1,
                    Integer::sum);
        }
        assertThat(flinkSql).hasSizeGreaterThan(1_000);
        assertThat(ivm).isEqualTo(flinkSql);
        assertThat(ivm).isEqualTo(datalog);
    }

    /** (orderkey, custkey, revenue without trailing zeros) to its count, from a changelog (Flink SQL's or the view's). */
    private static Map<List<Object>, Integer> changelog(Iterator<Row> rows) {
        Map<List<Object>, Integer> out = new HashMap<>();
        while (rows.hasNext()) {
            Row r = rows.next();
            int delta = r.getKind() == RowKind.INSERT || r.getKind() == RowKind.UPDATE_AFTER ? 1 : -1;
            out.merge(key(r), delta, Integer::sum);
        }
        out.values().removeIf(n -> n == 0);
        return out;
    }

    private static List<Object> key(Row r) {
        return List.of(
                r.getField("o_orderkey"),
                r.getField("o_custkey"),
                ((BigDecimal) r.getField("revenue")).stripTrailingZeros());
    }
}
