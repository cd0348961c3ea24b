package io.flinkivm.sql;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.apache.flink.table.api.DataTypes.TIMESTAMP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.types.DeadLetter;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.api.config.OptimizerConfigOptions;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Expressions of one table's row that flink-ivm leaves to Flink (issue 43, item 3): {@code DATE_FORMAT} in a
 * GROUP BY (Nexmark q15's shape), {@code FLOOR(ts TO HOUR)}, {@code CONCAT} of three strings, {@code JSON_VALUE},
 * a user-defined scalar function registered in the environment, as grouping keys, filters, aggregate arguments,
 * a join key looked up through a primary key (the key table absorbed) and a column of an absorbed table and of an
 * upsert table. Each view's final table equals Flink SQL's on the same tables. A function that throws on a row fails
 * the job, as the same query fails in Flink SQL.
 */
class SqlRowFunctionsITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static final DataType BID = ROW(
            FIELD("auction", BIGINT()),
            FIELD("bidder", BIGINT()),
            FIELD("price", BIGINT()),
            FIELD("channel", STRING()),
            FIELD("dateTime", TIMESTAMP(3)),
            FIELD("extra", STRING()));

    private static final DataType AUCTION = ROW(
            FIELD("id", BIGINT().notNull()),
            FIELD("seller", STRING()),
            FIELD("category", BIGINT()),
            FIELD("expires", TIMESTAMP(3)));

    private static final DataType PERSON = ROW(FIELD("id", BIGINT().notNull()), FIELD("name", STRING()));

    /** A user's scalar function: the band of a price, NULL for NULL. */
    public static final class PriceBand extends ScalarFunction {
        public String eval(Long price) {
            return price == null ? null : price < 30 ? "low" : price < 70 ? "mid" : "high";
        }
    }

    /** A user's scalar function that fails on a row whose channel is {@code boom}. */
    public static final class Fragile extends ScalarFunction {
        public String eval(String channel) {
            if ("boom".equals(channel)) {
                throw new IllegalArgumentException("Fragile cannot take the channel boom");
            }
            return channel;
        }
    }

    static final List<String> QUERIES = List.of(
            // Nexmark q15: bids, bidders and auctions per day, in price ranks
            "SELECT DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') AS `day`, COUNT(*) AS total_bids,"
                    + " COUNT(*) FILTER (WHERE price < 30) AS rank1_bids,"
                    + " COUNT(DISTINCT bidder) AS total_bidders,"
                    + " COUNT(DISTINCT bidder) FILTER (WHERE price >= 70) AS rank3_bidders,"
                    + " COUNT(DISTINCT auction) AS total_auctions"
                    + " FROM bid GROUP BY DATE_FORMAT(`dateTime`, 'yyyy-MM-dd')",
            "SELECT FLOOR(b.`dateTime` TO HOUR) AS `hour`, SUM(b.price) AS total, MAX(b.price) AS top"
                    + " FROM bid AS b GROUP BY FLOOR(b.`dateTime` TO HOUR)",
            "SELECT CONCAT(channel, '-', CAST(bidder AS STRING), '!') AS who, COUNT(*) AS n FROM bid"
                    + " WHERE CONCAT(channel, '/', channel) <> 'c1/c1'"
                    + " GROUP BY CONCAT(channel, '-', CAST(bidder AS STRING), '!')",
            "SELECT JSON_VALUE(extra, '$.kind') AS kind, COUNT(*) AS n, MIN(price) AS low,"
                    + " SUM(JSON_VALUE(extra, '$.n' RETURNING INT)) AS ns"
                    + " FROM bid WHERE JSON_VALUE(extra, '$.n' RETURNING INT) > 1 GROUP BY JSON_VALUE(extra, '$.kind')",
            "SELECT price_band(price) AS band, COUNT(DISTINCT bidder) AS bidders, MIN(UPPER(price_band(price))) AS up"
                    + " FROM bid GROUP BY price_band(price)",
            // a star: auction looked up by a computed key, person by a column; both folded into bid
            "SELECT DATE_FORMAT(b.`dateTime`, 'yyyy-MM-dd') AS `day`, COUNT(*) AS n, SUM(b.price) AS total"
                    + " FROM bid AS b, auction AS a, person AS p"
                    + " WHERE a.id = JSON_VALUE(b.extra, '$.auction' RETURNING INT) AND p.id = b.bidder"
                    + " AND p.name <> 'p0' GROUP BY DATE_FORMAT(b.`dateTime`, 'yyyy-MM-dd')",
            // a computed grouping key of the key table, gained through its key
            "SELECT DATE_FORMAT(a.expires, 'yyyy-MM') AS `month`, COUNT(*) AS n FROM bid AS b, auction AS a"
                    + " WHERE a.id = b.auction AND price_band(b.price) <> 'low'"
                    + " GROUP BY DATE_FORMAT(a.expires, 'yyyy-MM')",
            // a computed join key, the key table's column gained through the key (the closure)
            "SELECT a.seller, COUNT(*) AS n, SUM(b.price) AS total FROM bid AS b JOIN auction AS a"
                    + " ON a.id = JSON_VALUE(b.extra, '$.auction' RETURNING INT) GROUP BY a.seller");

    @Test
    void insertOnlyTablesAgreeWithFlinkSql() throws Exception {
        Random random = new Random(43_003L);
        StreamExecutionEnvironment env = SqlTestTables.environment(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.createTemporarySystemFunction("price_band", PriceBand.class);
        SqlTestTables.register(tEnv, env, "bid", BID, bids(random, 80));
        tEnv.createTemporaryView(
                "auction",
                tEnv.fromDataStream(
                        env.fromData(auctions(random), ExternalTypeInfo.<Row>of(AUCTION)),
                        Schema.newBuilder()
                                .fromRowDataType(AUCTION)
                                .primaryKey("id")
                                .build()));
        person(tEnv, env);
        List<SqlView> views = sameAsFlinkSql(env, tEnv, QUERIES, "insert-only");

        assertThat(views.get(0).explain())
                .contains("ivm$0 = DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') STRING, computed by Flink (DATE_FORMAT)")
                .contains("bid: columns auction, bidder, price, ivm$0\n")
                .contains("read through Flink's projection: SELECT `auction`, `bidder`, `price`,"
                        + " DATE_FORMAT(`dateTime`, 'yyyy-MM-dd') AS `ivm$0` FROM `bid`");
        assertThat(views.get(2).explain())
                .contains("CONCAT(`channel`, '-', CAST(`bidder` AS STRING), '!') STRING, computed by Flink (CONCAT)");
        // The computed join key is the key tables' key: both fold into bid, and the query is q-hierarchical.
        assertThat(views.get(5).explain())
                .contains("ivm$0 = JSON_VALUE(`extra`, '$.auction' RETURNING INTEGER) INT, computed by Flink"
                        + " (JSON_VALUE)")
                .contains("auction(V) folded into bid by V; payload taken by bid")
                .contains("person(bidder) folded into bid by bidder; payload taken by bid")
                .contains("Closure under the keys (the absorbed query): Q(V2) :- bid(bidder,V,V2)");
        // A computed column of the key table is gained through its key, as a column is.
        assertThat(views.get(6).explain())
                .contains("query:    Q(V) :- bid(auction), auction(auction,V) KEY auction(auction)")
                .contains("bid(auction) gains V: auction(auction) → V");
        assertThat(views.get(7).explain()).contains("bid(V) gains seller: auction(V) → seller");
    }

    @Test
    void anUpsertTableIsReadThroughItsProjectionToo() throws Exception {
        Random random = new Random(43_004L);
        StreamExecutionEnvironment env = SqlTestTables.environment(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.createTemporarySystemFunction("price_band", PriceBand.class);
        SqlTestTables.register(tEnv, env, "bid", BID, bids(random, 60));
        // Each auction's latest row: the grouping key DATE_FORMAT(expires) moves when its row is updated.
        Map<Long, Row> latest = new LinkedHashMap<>();
        List<Row> changes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            long id = random.nextInt(6);
            if (latest.containsKey(id) && random.nextInt(4) == 0) {
                Row gone = latest.remove(id);
                changes.add(Row.ofKind(
                        RowKind.DELETE, gone.getField(0), gone.getField(1), gone.getField(2), gone.getField(3)));
            } else {
                Row row = auction(random, id);
                latest.put(id, row);
                changes.add(Row.ofKind(
                        RowKind.UPDATE_AFTER, row.getField(0), row.getField(1), row.getField(2), row.getField(3)));
            }
        }
        tEnv.createTemporaryView(
                "auction",
                tEnv.fromChangelogStream(
                        env.fromData(changes, ExternalTypeInfo.<Row>of(AUCTION)).setParallelism(1),
                        Schema.newBuilder()
                                .fromRowDataType(AUCTION)
                                .primaryKey("id")
                                .build(),
                        ChangelogMode.upsert()));
        person(tEnv, env);
        sameAsFlinkSql(env, tEnv, QUERIES.subList(5, 8), "an upsert table of auctions");
    }

    @Test
    void aNonDeterministicExpressionOfATableWithDeletesIsRefusedByFlinksOwnCheck() {
        StreamExecutionEnvironment env = SqlTestTables.environment(1);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.createTemporaryView(
                "auction",
                tEnv.fromChangelogStream(
                        env.fromData(
                                        List.of(Row.ofKind(RowKind.UPDATE_AFTER, 1L, "s", 2L, null)),
                                        ExternalTypeInfo.<Row>of(AUCTION))
                                .setParallelism(1),
                        Schema.newBuilder()
                                .fromRowDataType(AUCTION)
                                .primaryKey("id")
                                .build(),
                        ChangelogMode.upsert()));
        String sql = "SELECT category + RAND_INTEGER(3) AS c, COUNT(*) AS n FROM auction GROUP BY category"
                + " + RAND_INTEGER(3)";
        assertThatThrownBy(() -> FlinkIvmSql.sql(tEnv, sql, IvmOptions.defaults()))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("table auction has deletes or updates, and Flink finds a column it computes for"
                        + " the query (ivm$0 = (`category` + RAND_INTEGER(3))) not deterministic: The column(s):"
                        + " ivm$0(generated by non-deterministic function: RAND_INTEGER )")
                .hasMessageEndingWith("use deterministic functions on such a table");
        // The user's setting is as it was.
        assertThat(tEnv.getConfig().get(OptimizerConfigOptions.TABLE_OPTIMIZER_NONDETERMINISTIC_UPDATE_STRATEGY))
                .isEqualTo(OptimizerConfigOptions.NonDeterministicUpdateStrategy.IGNORE);
    }

    @Test
    void aRowWhoseFunctionThrowsFailsTheJobAsInFlinkSql() {
        String sql = "SELECT fragile(channel) AS c, COUNT(*) AS n FROM bid GROUP BY fragile(channel)";
        List<Row> bids = new ArrayList<>();
        bids.add(Row.of(1L, 1L, 10L, "c1", LocalDateTime.of(2024, 5, 1, 10, 0), "{}"));
        bids.add(Row.of(1L, 2L, 20L, "boom", LocalDateTime.of(2024, 5, 1, 11, 0), "{}"));
        for (boolean flinkSql : new boolean[] {false, true}) {
            StreamExecutionEnvironment env = SqlTestTables.environment(1);
            StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
            tEnv.createTemporarySystemFunction("fragile", Fragile.class);
            SqlTestTables.register(tEnv, env, "bid", BID, bids);
            if (flinkSql) {
                tEnv.toChangelogStream(tEnv.sqlQuery(sql)).collectAsync();
            } else {
                SqlView view = FlinkIvmSql.sql(tEnv, sql, IvmOptions.defaults());
                tEnv.toChangelogStream(view.table()).collectAsync();
                view.deadLetters().collectAsync();
            }
            assertThatThrownBy(() -> env.execute(flinkSql ? "Flink SQL" : "flink-ivm"))
                    .as(flinkSql ? "Flink SQL" : "flink-ivm")
                    .hasRootCauseInstanceOf(IllegalArgumentException.class)
                    .hasRootCauseMessage("Fragile cannot take the channel boom");
        }
    }

    @Test
    void anExpressionFlinkDoesNotTakeEitherIsRefusedWithFlinksReason() {
        StreamExecutionEnvironment env = SqlTestTables.environment(1);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        SqlTestTables.register(tEnv, env, "bid", BID, List.of());
        assertThatThrownBy(() -> FlinkIvmSql.sql(
                        tEnv,
                        "SELECT no_such_fn(channel) AS c, COUNT(*) FROM bid GROUP BY no_such_fn(channel)",
                        IvmOptions.defaults()))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessage("flink-ivm leaves no_such_fn(channel) to Flink, which does not take it: No match found"
                        + " for function signature no_such_fn(<CHARACTER>); at line 1, column 8");
        assertThatThrownBy(() -> FlinkIvmSql.sql(
                        tEnv,
                        "SELECT TO_TIMESTAMP_LTZ(price, 3) AS t, COUNT(*) FROM bid GROUP BY TO_TIMESTAMP_LTZ(price, 3)",
                        IvmOptions.defaults()))
                .hasMessageContaining("TO_TIMESTAMP_LTZ(price, 3) of type TIMESTAMP_LTZ(3) (as Flink types it)")
                .hasMessageContaining("CAST it to one of them");
    }

    private static void person(StreamTableEnvironment tEnv, StreamExecutionEnvironment env) {
        List<Row> people = new ArrayList<>();
        for (long id = 5; id >= 0; id--) {
            people.add(Row.of(id, "p" + id % 3));
        }
        tEnv.createTemporaryView(
                "person",
                tEnv.fromDataStream(
                        env.fromData(people, ExternalTypeInfo.<Row>of(PERSON)),
                        Schema.newBuilder()
                                .fromRowDataType(PERSON)
                                .primaryKey("id")
                                .build()));
    }

    private static List<Row> bids(Random r, int n) {
        List<Row> out = new ArrayList<>();
        String[] kinds = {"ask", "bid", "swap"};
        for (int i = 0; i < n; i++) {
            LocalDateTime at = LocalDateTime.of(
                            2024, 5, 1 + r.nextInt(3), r.nextInt(4) * 5, r.nextInt(60), r.nextInt(60))
                    .plusNanos(r.nextInt(1000) * 1_000_000L);
            String extra = r.nextInt(8) == 0
                    ? null
                    : r.nextInt(8) == 0
                            ? "not json"
                            : "{\"kind\": \"" + kinds[r.nextInt(3)] + "\", \"n\": " + r.nextInt(4) + ", \"auction\": "
                                    + r.nextInt(7) + "}";
            out.add(Row.of(
                    (long) r.nextInt(6),
                    r.nextInt(7) == 0 ? null : (long) r.nextInt(6),
                    r.nextInt(9) == 0 ? null : (long) r.nextInt(100),
                    r.nextInt(6) == 0 ? null : "c" + r.nextInt(3),
                    r.nextInt(10) == 0 ? null : at,
                    extra));
        }
        return out;
    }

    private static List<Row> auctions(Random r) {
        List<Row> out = new ArrayList<>();
        for (long id = 0; id < 6; id++) {
            out.add(auction(r, id));
        }
        return out;
    }

    private static Row auction(Random r, long id) {
        return Row.of(
                id,
                r.nextInt(5) == 0 ? null : "s" + r.nextInt(3),
                (long) r.nextInt(3),
                r.nextInt(6) == 0 ? null : LocalDateTime.of(2024, 1 + r.nextInt(3), 1 + r.nextInt(28), 12, 0));
    }

    /** Runs every query as a view beside Flink SQL in one job; asserts equal final tables and returns the views. */
    private static List<SqlView> sameAsFlinkSql(
            StreamExecutionEnvironment env, StreamTableEnvironment tEnv, List<String> queries, String job)
            throws Exception {
        List<SqlView> views = new ArrayList<>();
        List<CloseableIterator<Row>> ivm = new ArrayList<>();
        List<CloseableIterator<Row>> flink = new ArrayList<>();
        List<CloseableIterator<DeadLetter>> deadLetters = new ArrayList<>();
        for (String sql : queries) {
            SqlView view = FlinkIvmSql.sql(
                    tEnv,
                    sql,
                    IvmOptions.defaults()
                            .withPrimaryKey("auction", "id")
                            .withPrimaryKey("person", "id")
                            .withSnapshotEvery(9));
            assertThat(view.translation().computedColumns()).as(sql).isNotEmpty();
            views.add(view);
            ivm.add(tEnv.toChangelogStream(view.table()).collectAsync());
            flink.add(tEnv.toChangelogStream(tEnv.sqlQuery(sql)).collectAsync());
            deadLetters.add(view.deadLetters().collectAsync());
        }
        env.execute("Flink's row functions, " + job);
        for (int i = 0; i < queries.size(); i++) {
            List<List<Object>> expected = SqlTestTables.changelogResult(flink.get(i));
            assertThat(expected).as("Flink SQL's result of %s", queries.get(i)).hasSizeGreaterThan(1);
            assertThat(SqlTestTables.changelogResult(ivm.get(i)))
                    .as("%s: %s", job, queries.get(i))
                    .containsExactlyInAnyOrderElementsOf(expected);
            assertThat(deadLetters.get(i))
                    .as("dead letters of %s", queries.get(i))
                    .isExhausted();
            ivm.get(i).close();
            flink.get(i).close();
            deadLetters.get(i).close();
        }
        return views;
    }
}
