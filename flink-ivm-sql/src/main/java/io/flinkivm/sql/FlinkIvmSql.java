package io.flinkivm.sql;

import io.flinkivm.flink.IvmOptions;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * flink-ivm's SQL entry point (artifact {@code flink-ivm-sql}): maintains a SQL query over tables of a
 * {@link StreamTableEnvironment} and returns the view as a table. The DataStream API stays in
 * {@link io.flinkivm.flink.FlinkIvm} (artifact {@code flink-ivm-operators}, which carries neither Calcite
 * nor the Table API).
 */
@PublicEvolving
public final class FlinkIvmSql {
    private FlinkIvmSql() {}

    /**
     * Maintains a SQL query over tables registered in {@code tEnv}: the tables' rows become inserts (and,
     * of a table whose changelog has deletes or updates, such as one from {@code fromChangelogStream} or an
     * upsert connector, deletes and updates over the aggregates' ring), flink-ivm maintains the query's
     * translation ({@link io.flinkivm.sql.translate.SqlTranslation}), and the result is the view's
     * changelog as a {@code Table} ({@link SqlView#table()}). {@link SqlView#explain()} says how the query
     * was translated and planned.
     *
     * <pre>{@code
     * SqlView view = FlinkIvmSql.sql(tEnv, "SELECT o.ok, SUM(l.price) AS revenue FROM orders o"
     *         + " JOIN lineitem l ON l.ok = o.ok GROUP BY o.ok", IvmOptions.defaults().withSnapshotEvery(10_000));
     * tEnv.createTemporaryView("revenue", view.table());
     * }</pre>
     *
     * @throws io.flinkivm.core.query.InvalidQueryException for malformed SQL or unknown tables and columns
     * @throws io.flinkivm.core.plan.UnsupportedPlanException for SQL outside the supported subset (the message
     *     names the construct and its position)
     */
    public static SqlView sql(StreamTableEnvironment tEnv, String sql, IvmOptions options) {
        return SqlViewBuilder.build(tEnv, sql, options);
    }
}
