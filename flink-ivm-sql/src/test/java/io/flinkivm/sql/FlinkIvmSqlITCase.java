package io.flinkivm.sql;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.DECIMAL;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.types.DeadLetter;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.types.DataType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link FlinkIvmSql#sql} on a MiniCluster: tables in, a table out, compared with Flink SQL's own result. */
class FlinkIvmSqlITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    static final DataType ORDERS = ROW(FIELD("ok", BIGINT()), FIELD("ck", BIGINT()), FIELD("status", STRING()));
    static final DataType ITEMS = ROW(FIELD("ok", BIGINT()), FIELD("price", DECIMAL(10, 2)));

    static final String SQL = "SELECT o.ck, SUM(i.price) AS spent FROM orders AS o JOIN items AS i ON i.ok = o.ok"
            + " WHERE o.status = 'open' GROUP BY o.ck";

    @Test
    void viewEqualsFlinkSql() throws Exception {
        StreamExecutionEnvironment env = SqlTestTables.environment(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        List<Row> orders = new ArrayList<>();
        List<Row> items = new ArrayList<>();
        for (long ok = 0; ok < 40; ok++) {
            orders.add(Row.of(ok, ok % 7, ok % 3 == 0 ? "done" : "open"));
            for (int i = 0; i < ok % 4; i++) {
                items.add(Row.of(ok, new BigDecimal(ok + "." + (i * 25 % 100 < 10 ? "0" : "") + (i * 25 % 100))));
            }
        }
        SqlTestTables.register(tEnv, env, "orders", ORDERS, orders);
        SqlTestTables.register(tEnv, env, "items", ITEMS, items);

        SqlView view = FlinkIvmSql.sql(tEnv, SQL, IvmOptions.defaults().withSnapshotEvery(10));
        assertThat(view.table().getResolvedSchema().getColumnNames()).containsExactly("ck", "spent");
        // ck may be NULL (a NULL ck is a group of its own), so it cannot be a primary key: a retract stream.
        assertThat(view.table().getResolvedSchema().getPrimaryKey()).isEmpty();
        SqlView keyed = FlinkIvmSql.sql(
                tEnv, SQL.replace("o.status = 'open'", "o.status = 'open' AND o.ck >= 0"), IvmOptions.defaults());
        assertThat(keyed.table().getResolvedSchema().getPrimaryKey())
                .hasValueSatisfying(k -> assertThat(k.getColumns()).containsExactly("ck"));
        assertThat(view.table().getResolvedSchema().getColumnDataTypes().get(1).getLogicalType())
                .isEqualTo(DataTypes.DECIMAL(38, 2).getLogicalType());
        assertThat(view.explain())
                .contains(
                        "SQL translation:",
                        "semiring: product(natural,integer,natural) (SUM(i.price))",
                        "p-hierarchical: no",
                        "Plan: fallback");
        assertThat(sameAsFlinkSql(env, tEnv, view, SQL, "sql view vs Flink SQL"))
                .hasSize(7);
    }

    @Test
    void badRowsBecomeDeadLettersWithTheirReasonAndNullsAreSql() throws Exception {
        StreamExecutionEnvironment env = SqlTestTables.environment(1);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        SqlTestTables.register(
                tEnv,
                env,
                "orders",
                ORDERS,
                List.of(
                        Row.of(1L, 10L, "open"),
                        Row.of(2L, 10L, "open"),
                        Row.of(3L, null, "open"),
                        Row.of(4L, 11L, null),
                        Row.of(5L, 11L, "open")));
        SqlTestTables.register(
                tEnv,
                env,
                "items",
                ITEMS,
                List.of(
                        Row.of(1L, new BigDecimal("2.50")),
                        Row.of(2L, new BigDecimal("-1.00")),
                        Row.of(3L, new BigDecimal("4.00")),
                        Row.of(4L, new BigDecimal("8.00")),
                        Row.of(5L, null)));
        // A division by zero in a filter is the row's error, not the job's; a NULL status is UNKNOWN, so
        // filtered out; a NULL ck is a group of its own; a NULL price is skipped by SUM.
        String sql = "SELECT o.ck, SUM(i.price) AS spent FROM orders AS o JOIN items AS i ON i.ok = o.ok"
                + " WHERE o.status = 'open' AND 10 / (o.ok - 2) <> 7 GROUP BY o.ck";
        SqlView view = FlinkIvmSql.sql(tEnv, sql, IvmOptions.defaults());
        try (CloseableIterator<Row> rows = tEnv.toChangelogStream(view.table()).collectAsync();
                CloseableIterator<DeadLetter> dead = view.deadLetters().collectAsync()) {
            env.execute("dead letters");
            assertThat(SqlTestTables.changelogResult(rows))
                    .containsExactlyInAnyOrder(
                            Arrays.asList(SqlTestTables.normalize(10L), SqlTestTables.normalize(new BigDecimal("2.5"))),
                            Arrays.asList(null, SqlTestTables.normalize(new BigDecimal("4"))),
                            Arrays.asList(SqlTestTables.normalize(11L), null));
            List<String> reasons = new ArrayList<>();
            dead.forEachRemaining(d -> reasons.add(d.reason() + " | " + d.origin() + " | " + d.record()));
            assertThat(reasons)
                    .singleElement()
                    .satisfies(r -> assertThat(r).contains("division by zero", "of table orders", "+I[2, 10, open]"));
        }
    }

    /**
     * Tables whose changelog has deletes and updates: a retract stream ({@code fromChangelogStream},
     * {@code -D}, {@code -U}/{@code +U}) and an upsert stream keyed by its primary key (only {@code +U}
     * and {@code -D}; Flink's ChangelogNormalize gives the previous row). COUNT, SUM, MIN and MAX over
     * their join run over the ring and give Flink SQL's final table.
     */
    @Test
    void changelogTablesRunOverTheRing() throws Exception {
        StreamExecutionEnvironment env = SqlTestTables.environment(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.createTemporaryView(
                "orders",
                tEnv.fromChangelogStream(
                        env.fromData(
                                        Row.ofKind(RowKind.INSERT, 1L, 10L, 5L),
                                        Row.ofKind(RowKind.INSERT, 2L, 10L, 7L),
                                        Row.ofKind(RowKind.INSERT, 3L, 20L, 1L),
                                        Row.ofKind(RowKind.INSERT, 4L, 10L, 9L),
                                        Row.ofKind(RowKind.DELETE, 2L, 10L, 7L),
                                        Row.ofKind(RowKind.UPDATE_BEFORE, 3L, 20L, 1L),
                                        Row.ofKind(RowKind.UPDATE_AFTER, 3L, 10L, 2L),
                                        Row.ofKind(RowKind.DELETE, 4L, 10L, 9L))
                                .setParallelism(1),
                        Schema.newBuilder()
                                .column("f0", BIGINT())
                                .column("f1", BIGINT())
                                .column("f2", BIGINT())
                                .build()));
        tEnv.createTemporaryView(
                "customers",
                tEnv.fromChangelogStream(
                        env.fromData(
                                        Row.ofKind(RowKind.UPDATE_AFTER, 10L, "ann"),
                                        Row.ofKind(RowKind.UPDATE_AFTER, 20L, "bob"),
                                        Row.ofKind(RowKind.UPDATE_AFTER, 10L, "cid"),
                                        Row.ofKind(RowKind.DELETE, 20L, "bob"))
                                .setParallelism(1),
                        Schema.newBuilder()
                                .column("f0", BIGINT().notNull())
                                .column("f1", STRING())
                                .primaryKey("f0")
                                .build(),
                        ChangelogMode.upsert()));
        String sql = "SELECT c.f1, COUNT(*), SUM(o.f2), MIN(o.f2), MAX(o.f2) FROM orders o JOIN customers c"
                + " ON o.f1 = c.f0 GROUP BY c.f1";
        SqlView view = FlinkIvmSql.sql(tEnv, sql, IvmOptions.defaults().withSnapshotEvery(2));
        assertThat(view.job().plan().inputs().changelog()).isNotEmpty();
        assertThat(sameAsFlinkSql(env, tEnv, view, sql, "changelog tables")).isNotEmpty();
    }

    @Test
    void aBagOverAChangelogLosesACopyPerDelete() throws Exception {
        StreamExecutionEnvironment env = SqlTestTables.environment(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.createTemporaryView(
                "orders",
                tEnv.fromChangelogStream(
                        env.fromData(
                                        Row.ofKind(RowKind.INSERT, 1L, 10L, "open"),
                                        Row.ofKind(RowKind.INSERT, 2L, 10L, "open"),
                                        Row.ofKind(RowKind.INSERT, 3L, 20L, "open"),
                                        Row.ofKind(RowKind.DELETE, 1L, 10L, "open"),
                                        Row.ofKind(RowKind.UPDATE_BEFORE, 3L, 20L, "open"),
                                        Row.ofKind(RowKind.UPDATE_AFTER, 3L, 10L, "open"))
                                .setParallelism(1),
                        Schema.newBuilder()
                                .column("f0", BIGINT())
                                .column("f1", BIGINT())
                                .column("f2", STRING())
                                .build()));
        String sql = "SELECT f1 FROM orders WHERE f2 = 'open'";
        SqlView view = FlinkIvmSql.sql(tEnv, sql, IvmOptions.defaults());
        assertThat(sameAsFlinkSql(env, tEnv, view, sql, "a bag over a changelog"))
                .hasSize(2);
    }

    @Test
    void aTableBehindItsPushedFilterKeepsOnlyTheColumnsAfterIt() throws Exception {
        List<Row> orders = new ArrayList<>();
        for (long ok = 0; ok < 30; ok++) {
            orders.add(Row.of(ok, ok % 4, ok % 3 == 0 ? "done" : ok % 5 == 0 ? null : "open"));
        }
        // Every column the count reads is a filter's: behind Flink's filter the rows carry none.
        assertThat(overOrders(orders, "SELECT COUNT(*) AS n FROM orders WHERE status = 'open' AND ck > 0"))
                .singleElement()
                .satisfies(row -> assertThat(((Number) row.get(0)).longValue()).isEqualTo(12L));
        assertThat(overOrders(orders, "SELECT ck, COUNT(*) AS n FROM orders WHERE status <> 'done' GROUP BY ck"))
                .hasSize(4);
    }

    /** The view of {@code sql} over the table orders of {@code rows}, equal to Flink SQL's; returns the result. */
    private static List<List<Object>> overOrders(List<Row> rows, String sql) throws Exception {
        StreamExecutionEnvironment env = SqlTestTables.environment(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        SqlTestTables.register(tEnv, env, "orders", ORDERS, rows);
        return sameAsFlinkSql(env, tEnv, FlinkIvmSql.sql(tEnv, sql, IvmOptions.defaults()), sql, sql);
    }

    @Test
    void refusedBeforeAnyJob() {
        StreamExecutionEnvironment env = SqlTestTables.environment(1);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        SqlTestTables.register(tEnv, env, "orders", ORDERS, List.of(Row.of(1L, 10L, "open")));
        assertThatThrownBy(() -> FlinkIvmSql.sql(
                        tEnv,
                        "SELECT o.ck, COUNT(*) FROM orders o, orders p WHERE o.ok < p.ck GROUP BY o.ck",
                        IvmOptions.defaults()))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("the condition o.ok < p.ck across the tables o and p at line 1, column 53");
        assertThatThrownBy(() ->
                        FlinkIvmSql.sql(tEnv, "SELECT ck, COUNT(*) FROM nowhere GROUP BY ck", IvmOptions.defaults()))
                .hasMessageContaining("unknown table nowhere at line 1, column 26");
    }

    /**
     * The table environment's {@code table.exec.state.ttl} is the view's state TTL, as for Flink SQL's
     * own operators, unless the options set one: a TTL of their own, or zero (no expiry), wins.
     */
    @Test
    void theTableEnvironmentsStateTtlIsTheDefault() {
        StreamExecutionEnvironment env = SqlTestTables.environment(1);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        SqlTestTables.register(tEnv, env, "orders", ORDERS, List.of(Row.of(1L, 10L, "open")));
        SqlTestTables.register(tEnv, env, "items", ITEMS, List.of(Row.of(1L, new BigDecimal("2.50"))));
        assertThat(FlinkIvmSql.sql(tEnv, SQL, IvmOptions.defaults())
                        .job()
                        .options()
                        .stateTtl())
                .isNull();
        tEnv.getConfig().set(ExecutionConfigOptions.IDLE_STATE_RETENTION, Duration.ofHours(1));
        SqlView view = FlinkIvmSql.sql(tEnv, SQL, IvmOptions.defaults());
        assertThat(view.job().options().stateTtl()).isEqualTo(Duration.ofHours(1));
        assertThat(view.explain()).contains("state TTL 1 h: entries of views, key stages and row checks expire 1 h");
        assertThat(FlinkIvmSql.sql(tEnv, SQL, IvmOptions.defaults().withStateTtl(Duration.ofMinutes(5)))
                        .explain())
                .contains("state TTL 5 min:");
        SqlView never = FlinkIvmSql.sql(tEnv, SQL, IvmOptions.defaults().withStateTtl(Duration.ZERO));
        assertThat(never.job().options().stateTtlMillis()).isZero();
        assertThat(never.explain()).doesNotContain("state TTL");
    }

    /** Runs the view beside Flink SQL's {@code sql} in one job; asserts equal final results and returns them. */
    private static List<List<Object>> sameAsFlinkSql(
            StreamExecutionEnvironment env, StreamTableEnvironment tEnv, SqlView view, String sql, String job)
            throws Exception {
        try (CloseableIterator<Row> ivm = tEnv.toChangelogStream(view.table()).collectAsync();
                CloseableIterator<Row> flink =
                        tEnv.toChangelogStream(tEnv.sqlQuery(sql)).collectAsync()) {
            env.execute(job);
            List<List<Object>> expected = SqlTestTables.changelogResult(flink);
            assertThat(SqlTestTables.changelogResult(ivm)).containsExactlyInAnyOrderElementsOf(expected);
            return expected;
        }
    }
}
