package io.flinkivm.sql;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.types.DeadLetter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The star and snowflake queries of issue 43 in SQL over tables with primary keys, on a MiniCluster:
 * every dimension table is folded into the fact that looks it up, and the dimensions' rows come after
 * the facts' (the facts wait for them). Rows of a dimension that the query's filter drops reach their key
 * stage as marks, so the facts that look them up are dropped; the results equal Flink SQL's. A second
 * row with the key of an absorbed table is one dead letter.
 */
class SqlAbsorptionITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    static final DataType SHIPMENT = ROW(
            FIELD("id", BIGINT()),
            FIELD("carrier_id", BIGINT()),
            FIELD("product_id", BIGINT()),
            FIELD("order_id", BIGINT()),
            FIELD("note", STRING()),
            FIELD("return_carrier_id", BIGINT()));
    static final DataType ITEM_RETURN =
            ROW(FIELD("id", BIGINT()), FIELD("order_id", BIGINT()), FIELD("reason", STRING()));
    static final DataType ORDERS = ROW(FIELD("id", BIGINT()), FIELD("region_id", BIGINT()));
    static final DataType PRODUCT = ROW(FIELD("id", BIGINT()), FIELD("name", STRING()));
    static final DataType CARRIER = ROW(FIELD("id", BIGINT()), FIELD("kind", STRING()));
    static final DataType REGION = ROW(FIELD("id", BIGINT()), FIELD("name", STRING()));

    /** The issue's query, with COUNT(*) for its MIN and MAX of strings. */
    static final String STAR = "SELECT COUNT(*) AS n FROM shipment AS s, item_return AS ir, orders AS o, product AS p,"
            + " carrier AS c, region AS r WHERE c.kind = 'express' AND r.name = 'EMEA' AND s.note NOT LIKE '%damaged%'"
            + " AND (ir.reason LIKE '%late%' OR ir.reason LIKE '%wrong%') AND c.id = s.carrier_id"
            + " AND p.id = s.product_id AND o.id = s.order_id AND o.id = ir.order_id AND s.order_id = ir.order_id"
            + " AND r.id = o.region_id";
    /** Shipments per product of express carriers in EMEA orders: product, carrier, orders and region folded in. */
    static final String PER_PRODUCT = "SELECT p.name, COUNT(*) AS n FROM shipment AS s JOIN product AS p"
            + " ON p.id = s.product_id JOIN carrier AS c ON c.id = s.carrier_id JOIN orders AS o ON o.id = s.order_id"
            + " JOIN region AS r ON r.id = o.region_id WHERE c.kind = 'express' AND r.name <> 'APAC' GROUP BY p.name";

    /**
     * Carrier under two aliases with different filters and columns: two relations of one table, both
     * folded into shipment, each with its own key stage.
     */
    static final String TWO_CARRIERS = "SELECT c.kind, MIN(p.name) AS first_product, COUNT(*) AS n FROM shipment AS s"
            + " JOIN carrier AS c ON c.id = s.carrier_id JOIN carrier AS rc ON rc.id = s.return_carrier_id"
            + " JOIN product AS p ON p.id = s.product_id WHERE rc.kind = 'ground' GROUP BY c.kind";

    static IvmOptions keys() {
        return IvmOptions.defaults()
                .withPrimaryKey("orders", "id")
                .withPrimaryKey("product", "id")
                .withPrimaryKey("carrier", "id")
                .withPrimaryKey("region", "id")
                .withSnapshotEvery(40);
    }

    @Test
    void starAndSnowflakeQueriesAgreeWithFlinkSqlWhenDimensionsComeLast() throws Exception {
        List<DeadLetter> dead = run(new Data(new Random(43), false), 2);
        assertThat(dead).isEmpty();
    }

    @Test
    void aSecondRowWithTheKeyOfAnAbsorbedTableIsOneDeadLetter() throws Exception {
        Data data = new Data(new Random(44), true);
        List<DeadLetter> dead = run(data, 1);
        // Every query folds carrier in; each dead-letters the identical second row of carrier 1 once, also
        // the one with carrier under two aliases (two stages that reject the row, one that reports it).
        assertThat(dead)
                .hasSize(3)
                .allSatisfy(d -> assertThat(d.reason())
                        .containsPattern("breaks KEY carrier(_c)?\\(")
                        .contains("is absorbed into the rows that look it up"));
    }

    private static List<DeadLetter> run(Data data, int parallelism) throws Exception {
        StreamExecutionEnvironment env = SqlTestTables.environment(parallelism);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        SqlTestTables.register(tEnv, env, "shipment", SHIPMENT, data.shipments);
        SqlTestTables.register(tEnv, env, "item_return", ITEM_RETURN, data.returns);
        // The dimensions come after the facts: the facts wait for their key rows, or for their marks.
        delayed(tEnv, env, "orders", ORDERS, data.orders);
        delayed(tEnv, env, "product", PRODUCT, data.products);
        delayed(tEnv, env, "carrier", CARRIER, data.carriers);
        delayed(tEnv, env, "region", REGION, data.regions);
        // Flink SQL reads the dimensions without the row that breaks a key.
        SqlTestTables.register(tEnv, env, "carrier_valid", CARRIER, data.validCarriers);
        List<CloseableIterator<Row>> ivm = new ArrayList<>();
        List<CloseableIterator<Row>> flink = new ArrayList<>();
        List<CloseableIterator<DeadLetter>> dead = new ArrayList<>();
        for (String sql : List.of(STAR, PER_PRODUCT, TWO_CARRIERS)) {
            SqlView view = FlinkIvmSql.sql(tEnv, sql, keys());
            assertThat(view.explain())
                    .as(sql)
                    .contains("folded into shipment", "Closure under the keys (the absorbed query)")
                    .contains("where the keys hold");
            if (sql.equals(TWO_CARRIERS)) {
                assertThat(view.translation().table("carrier").relations()).hasSize(2);
                assertThat(view.explain()).contains("reports the rows of table carrier that break its key once");
            }
            ivm.add(tEnv.toChangelogStream(view.table()).collectAsync());
            dead.add(view.deadLetters().collectAsync());
            flink.add(tEnv.toChangelogStream(tEnv.sqlQuery(sql.replace("carrier AS ", "carrier_valid AS ")))
                    .collectAsync());
        }
        env.execute("SQL absorption");
        List<DeadLetter> letters = new ArrayList<>();
        for (int i = 0; i < ivm.size(); i++) {
            List<List<Object>> expected = SqlTestTables.changelogResult(flink.get(i));
            assertThat(expected).isNotEmpty();
            assertThat(SqlTestTables.changelogResult(ivm.get(i))).containsExactlyInAnyOrderElementsOf(expected);
            dead.get(i).forEachRemaining(letters::add);
            ivm.get(i).close();
            flink.get(i).close();
            dead.get(i).close();
        }
        return letters;
    }

    private static void delayed(
            StreamTableEnvironment tEnv, StreamExecutionEnvironment env, String name, DataType type, List<Row> rows) {
        DataStream<Row> stream = env.fromData(rows, ExternalTypeInfo.<Row>of(type))
                .map(new SqlKeysITCase.Delay())
                .returns(ExternalTypeInfo.<Row>of(type));
        tEnv.createTemporaryView(name, tEnv.fromDataStream(stream));
    }

    /**
     * Facts referencing dimensions by key, some of them missing (facts that wait for good, as in Flink
     * SQL's join state) and many of them filtered out (dropped through their marks); with {@code
     * violate}, a second, identical row of carrier 1.
     */
    static final class Data {
        final List<Row> shipments = new ArrayList<>();
        final List<Row> returns = new ArrayList<>();
        final List<Row> orders = new ArrayList<>();
        final List<Row> products = new ArrayList<>();
        final List<Row> carriers = new ArrayList<>();
        final List<Row> validCarriers = new ArrayList<>();
        final List<Row> regions = new ArrayList<>();

        Data(Random random, boolean violate) {
            String[] regionNames = {"EMEA", "APAC", "AMER"};
            for (long r = 1; r <= 4; r++) {
                regions.add(Row.of(r, regionNames[random.nextInt(regionNames.length)]));
            }
            for (long c = 1; c <= 6; c++) {
                Row row = Row.of(c, random.nextInt(2) == 0 ? "express" : "ground");
                carriers.add(row);
                validCarriers.add(row);
            }
            if (violate) {
                carriers.add(carriers.get(0));
            }
            for (long p = 1; p <= 8; p++) {
                products.add(Row.of(p, "product " + (p % 5)));
            }
            for (long o = 1; o <= 40; o++) {
                orders.add(Row.of(o, 1 + (long) random.nextInt(5)));
            }
            String[] notes = {"fine", "damaged box", "late", ""};
            for (long s = 1; s <= 200; s++) {
                shipments.add(Row.of(
                        s,
                        1 + (long) random.nextInt(7),
                        1 + (long) random.nextInt(9),
                        1 + (long) random.nextInt(44),
                        notes[random.nextInt(notes.length)],
                        1 + (long) random.nextInt(7)));
            }
            String[] reasons = {"arrived late", "wrong size", "changed mind"};
            for (long i = 1; i <= 60; i++) {
                returns.add(Row.of(i, 1 + (long) random.nextInt(44), reasons[random.nextInt(reasons.length)]));
            }
        }
    }
}
