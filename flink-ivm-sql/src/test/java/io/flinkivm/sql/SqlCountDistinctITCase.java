package io.flinkivm.sql;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.semiring.Semiring;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.types.DeadLetter;
import io.flinkivm.sql.rows.FlinkTables;
import io.flinkivm.sql.translate.DistinctGroupMap;
import io.flinkivm.sql.translate.SqlTranslation;
import io.flinkivm.sql.translate.TableInput;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * COUNT(DISTINCT ...) per group: alone, beside other aggregates, with FILTER clauses, with two distinct
 * arguments, of an expression, through a join, globally and grouped by its own argument. Each query's
 * final table from {@link FlinkIvmSql#sql} equals Flink SQL's on the same tables, insert-only and over a
 * retract changelog of bids joined to an upsert table of auctions; and on insert-only tables the naive
 * evaluator's result tuples, folded into groups, give the same rows.
 */
class SqlCountDistinctITCase {

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
            FIELD("dt", STRING()));

    private static final DataType AUCTION_ROW = ROW(FIELD("id", BIGINT().notNull()), FIELD("category", BIGINT()));

    private static final Schema AUCTION =
            Schema.newBuilder().fromRowDataType(AUCTION_ROW).primaryKey("id").build();

    static final List<String> QUERIES = List.of(
            "SELECT dt, COUNT(DISTINCT bidder) AS bidders FROM bid GROUP BY dt",
            // Nexmark q15's shape: counts of rows and of distinct bidders and auctions, some filtered
            "SELECT dt, COUNT(*) AS total_bids, COUNT(*) FILTER (WHERE price < 50) AS rank1_bids,"
                    + " COUNT(DISTINCT bidder) AS total_bidders,"
                    + " COUNT(DISTINCT bidder) FILTER (WHERE price < 50) AS rank1_bidders,"
                    + " COUNT(DISTINCT bidder) FILTER (WHERE price >= 80) AS rank3_bidders,"
                    + " COUNT(DISTINCT auction) AS total_auctions, SUM(price) AS total, MIN(channel) AS first_channel"
                    + " FROM bid GROUP BY dt",
            "SELECT COUNT(DISTINCT bidder) AS bidders, COUNT(*) AS n, MAX(price) AS top FROM bid",
            "SELECT channel, dt, COUNT(DISTINCT auction + bidder) AS pairs FROM bid GROUP BY channel, dt",
            "SELECT bidder, COUNT(DISTINCT bidder) AS itself, COUNT(DISTINCT dt) AS days FROM bid GROUP BY bidder",
            "SELECT a.category, COUNT(DISTINCT b.bidder) AS bidders, COUNT(*) AS n,"
                    + " COUNT(DISTINCT b.dt) FILTER (WHERE b.price < 50) AS cheap_days"
                    + " FROM bid b, auction a WHERE a.id = b.auction GROUP BY a.category");

    @Test
    void insertOnlyTablesAgreeWithFlinkSqlAndTheNaiveEvaluator() throws Exception {
        Random random = new Random(20_261_207L);
        List<Row> bids = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            bids.add(Row.of(bid(random)));
        }
        List<Row> auctions = new ArrayList<>();
        for (long id = 0; id < 5; id++) {
            auctions.add(Row.of(id, random.nextInt(4) == 0 ? null : (long) random.nextInt(3)));
        }
        StreamExecutionEnvironment env = SqlTestTables.environment(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        SqlTestTables.register(tEnv, env, "bid", BID, bids);
        tEnv.createTemporaryView(
                "auction", tEnv.fromDataStream(env.fromData(auctions, ExternalTypeInfo.<Row>of(AUCTION_ROW))));
        List<List<List<Object>>> results = sameAsFlinkSql(env, tEnv, "insert-only");
        for (int i = 0; i < QUERIES.size(); i++) {
            SqlTranslation t = SqlTranslation.of(
                    QUERIES.get(i),
                    path -> path.size() == 1 ? FlinkTables.schema(path.get(0), tEnv.from(path.get(0))) : null);
            assertThat(naive(t, t.semiring(), Map.of("bid", bids, "auction", auctions)))
                    .as("the naive evaluator: %s", QUERIES.get(i))
                    .containsExactlyInAnyOrderElementsOf(results.get(i));
        }
    }

    @Test
    void changelogsAgreeWithFlinkSql() throws Exception {
        Random random = new Random(20_261_208L);
        List<Row> bids = new ArrayList<>();
        List<Object[]> live = new ArrayList<>();
        for (int i = 0; i < 90; i++) {
            int op = live.isEmpty() ? 0 : random.nextInt(5);
            if (op <= 2) {
                Object[] values = bid(random);
                live.add(values);
                bids.add(Row.ofKind(RowKind.INSERT, values));
            } else {
                Object[] gone = live.remove(random.nextInt(live.size()));
                if (op == 3) {
                    bids.add(Row.ofKind(RowKind.DELETE, gone));
                } else {
                    Object[] values = bid(random);
                    live.add(values);
                    bids.add(Row.ofKind(RowKind.UPDATE_BEFORE, gone));
                    bids.add(Row.ofKind(RowKind.UPDATE_AFTER, values));
                }
            }
        }
        // An upsert table: each key's latest row (+U), some keys deleted (-D) and some of them back.
        Map<Long, Long> categories = new LinkedHashMap<>();
        List<Row> auctions = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            long id = random.nextInt(5);
            if (categories.containsKey(id) && random.nextInt(3) == 0) {
                auctions.add(Row.ofKind(RowKind.DELETE, id, categories.remove(id)));
            } else {
                long category = random.nextInt(3);
                categories.put(id, category);
                auctions.add(Row.ofKind(RowKind.UPDATE_AFTER, id, category));
            }
        }
        StreamExecutionEnvironment env = SqlTestTables.environment(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        SqlTestTables.registerChangelog(tEnv, env, "bid", BID, bids);
        tEnv.createTemporaryView(
                "auction",
                tEnv.fromChangelogStream(
                        env.fromData(auctions, ExternalTypeInfo.<Row>of(AUCTION_ROW))
                                .setParallelism(1),
                        AUCTION,
                        ChangelogMode.upsert()));
        List<List<List<Object>>> results = sameAsFlinkSql(env, tEnv, "changelogs");
        assertThat(results.get(1)).isNotEmpty();
    }

    private static Object[] bid(Random r) {
        return new Object[] {
            (long) r.nextInt(5),
            r.nextInt(7) == 0 ? null : (long) r.nextInt(6),
            r.nextInt(9) == 0 ? null : (long) r.nextInt(100),
            r.nextInt(6) == 0 ? null : "c" + r.nextInt(3),
            "d" + r.nextInt(3)
        };
    }

    /** Runs every query as a view beside Flink SQL in one job; asserts equal final tables and returns them. */
    private static List<List<List<Object>>> sameAsFlinkSql(
            StreamExecutionEnvironment env, StreamTableEnvironment tEnv, String job) throws Exception {
        List<CloseableIterator<Row>> ivm = new ArrayList<>();
        List<CloseableIterator<Row>> flink = new ArrayList<>();
        List<CloseableIterator<DeadLetter>> deadLetters = new ArrayList<>();
        for (String sql : QUERIES) {
            SqlView view = FlinkIvmSql.sql(tEnv, sql, IvmOptions.defaults().withSnapshotEvery(7));
            assertThat(view.translation().distinctGroups()).as(sql).isNotNull();
            ivm.add(tEnv.toChangelogStream(view.table()).collectAsync());
            flink.add(tEnv.toChangelogStream(tEnv.sqlQuery(sql)).collectAsync());
            deadLetters.add(view.deadLetters().collectAsync());
        }
        env.execute("COUNT(DISTINCT ...), " + job);
        List<List<List<Object>>> results = new ArrayList<>();
        for (int i = 0; i < QUERIES.size(); i++) {
            List<List<Object>> expected = SqlTestTables.changelogResult(flink.get(i));
            assertThat(SqlTestTables.changelogResult(ivm.get(i)))
                    .as("%s: %s", job, QUERIES.get(i))
                    .containsExactlyInAnyOrderElementsOf(expected);
            assertThat(deadLetters.get(i))
                    .as("dead letters of %s", QUERIES.get(i))
                    .isExhausted();
            results.add(expected);
            ivm.get(i).close();
            flink.get(i).close();
            deadLetters.get(i).close();
        }
        return results;
    }

    /** The naive evaluator's result tuples over insert-only {@code tables}, folded into groups. */
    private static <T> List<List<Object>> naive(SqlTranslation t, Semiring<T> k, Map<String, List<Row>> tables)
            throws Exception {
        KDatabase<T> db = new KDatabase<>(k);
        for (TableInput table : t.tables()) {
            String name = table.path().get(table.path().size() - 1);
            List<String> names = name.equals("bid") ? DataType.getFieldNames(BID) : List.of("id", "category");
            for (Row row : tables.get(name)) {
                Object[] values = new Object[table.inputColumns().size()];
                for (int c = 0; c < values.length; c++) {
                    values[c] = row.getField(names.indexOf(table.inputColumns().get(c)));
                }
                for (TableInput.Insert insert : table.inserts(table.fromValues(values))) {
                    db.insert(insert.relation(), insert.tuple(), SqlTranslation.payloadIn(k, insert.payload()));
                }
            }
        }
        DistinctGroupMap groups = new DistinctGroupMap(t, k);
        NaiveEvaluator.evaluate(t.query(), k, db.relations()).forEach((tuple, payload) -> {
            if (!k.isZero(payload)) {
                groups.change(tuple, null, payload);
            }
        });
        List<List<Object>> out = new ArrayList<>();
        groups.groups().forEach((group, g) -> {
            List<Object> values = new ArrayList<>();
            for (Object v : t.outputRow(group, g)) {
                values.add(SqlTestTables.normalize(v));
            }
            out.add(values);
        });
        return out;
    }
}
