package io.flinkivm.sql;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.DATE;
import static org.apache.flink.table.api.DataTypes.DECIMAL;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.INT;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.types.DeadLetter;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Primary keys through {@link FlinkIvmSql#sql}: queries that are not p-hierarchical but whose closure
 * under the keys is run on the O(1) plan, on data where the keys hold and the key rows (customers)
 * arrive after the rows that need them; their results equal Flink SQL's. A row that breaks a key is a
 * dead letter, and the result is Flink SQL's without it.
 */
class SqlKeysITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    static final DataType CUSTOMER =
            ROW(FIELD("c_custkey", BIGINT()), FIELD("c_name", STRING()), FIELD("c_mktsegment", STRING()));
    static final DataType ORDERS = ROW(
            FIELD("o_orderkey", BIGINT().notNull()),
            FIELD("o_custkey", BIGINT()),
            FIELD("o_orderdate", DATE()),
            FIELD("o_shippriority", INT()));
    static final DataType LINEITEM = ROW(
            FIELD("l_orderkey", BIGINT()),
            FIELD("l_linenumber", INT()),
            FIELD("l_extendedprice", DECIMAL(12, 2)),
            FIELD("l_discount", DECIMAL(4, 2)),
            FIELD("l_shipdate", DATE()));

    static final String Q3 = "SELECT l_orderkey, SUM(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate,"
            + " o_shippriority FROM customer, orders, lineitem WHERE c_mktsegment = 'BUILDING'"
            + " AND c_custkey = o_custkey AND l_orderkey = o_orderkey AND o_orderdate < DATE '1995-03-15'"
            + " AND l_shipdate > DATE '1995-03-15' GROUP BY l_orderkey, o_orderdate, o_shippriority";
    static final String PER_SEGMENT = "SELECT c_mktsegment, SUM(l_extendedprice * (1 - l_discount)) AS revenue,"
            + " COUNT(*) AS items, AVG(l_discount) AS discount FROM customer JOIN orders ON c_custkey = o_custkey"
            + " JOIN lineitem ON l_orderkey = o_orderkey GROUP BY c_mktsegment";
    static final String BAG = "SELECT c_name, c_mktsegment, o_orderkey FROM orders AS o JOIN customer AS c"
            + " ON o.o_custkey = c.c_custkey WHERE o_shippriority = 1 AND (c_mktsegment = 'BUILDING' OR c_mktsegment = 'AUTO')";
    static final List<String> QUERIES = List.of(Q3, PER_SEGMENT, BAG);

    @Test
    void eachTableFiltersAndRoutesItsRowsInItsOwnChain() {
        Data data = new Data(new Random(7), false);
        StreamExecutionEnvironment env = SqlTestTables.environment(2);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        register(tEnv, env, "customer", CUSTOMER, data.customers, true, false);
        register(tEnv, env, "orders", ORDERS, data.orders, false, true);
        SqlTestTables.register(tEnv, env, "lineitem", LINEITEM, data.lineitems);
        // Q3 relies on the orders' key through the head's closure only: checked here, so that it has a key stage.
        SqlView view = FlinkIvmSql.sql(tEnv, Q3, IvmOptions.defaults().withKeyChecks(true));
        tEnv.toChangelogStream(view.table()).sinkTo(new DiscardingSink<>());
        List<String> chains = new ArrayList<>();
        List<String> descriptions = new ArrayList<>();
        StreamGraph graph = env.getStreamGraph();
        graph.getStreamNodes().forEach(n -> descriptions.add(String.valueOf(n.getOperatorDescription())));
        graph.getJobGraph().getVertices().forEach(v -> chains.add(v.getName()));
        for (String table : List.of("customer", "orders", "lineitem")) {
            // The key route runs in the chain that converts the table's rows: no exchange between them.
            assertThat(chains).as(table).anyMatch(c -> c.contains("rows of " + table + " to inserts -> key route"));
        }
        // Flink's Calc of each table applies the table's filter before flink-ivm converts its rows.
        for (String column : List.of("c_mktsegment", "o_orderdate", "l_shipdate")) {
            assertThat(descriptions)
                    .as(column)
                    .anyMatch(d -> d.matches("(?s).*Calc\\(select=.*where=.*" + column + ".*"));
        }
    }

    @Test
    void closuresUnderKeysAgreeWithFlinkSqlWhenKeyRowsComeLast() throws Exception {
        Data data = new Data(new Random(7), false);
        List<DeadLetter> dead = run(data, QUERIES, 2);
        assertThat(dead).isEmpty();
    }

    @Test
    void aRowThatBreaksAKeyIsADeadLetterAndNothingElseChanges() throws Exception {
        // At parallelism 1 the conflicting rows arrive in the order written: the later one is the dead letter.
        // PER_SEGMENT relies on the customers' key (orders gain the segment through it); BAG relies on the
        // orders' key only, so it checks no customer key and its result is SQL's over every row.
        Data data = new Data(new Random(8), true);
        List<DeadLetter> dead = run(data, List.of(PER_SEGMENT, BAG.replace("customer", "customer_all")), 1);
        assertThat(dead)
                .singleElement()
                .satisfies(d -> assertThat(d.reason())
                        .contains(
                                "customer",
                                "c_custkey",
                                data.violation.getField(2).toString(),
                                data.kept.getField(2).toString()));
    }

    /** Runs every query through flink-ivm and Flink SQL (on the rows without the violating one) and compares. */
    private static List<DeadLetter> run(Data data, List<String> queries, int parallelism) throws Exception {
        StreamExecutionEnvironment env = SqlTestTables.environment(parallelism);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        // The customers (the key rows of every closure) come last: rows that need them wait.
        register(tEnv, env, "customer", CUSTOMER, data.customers, true, false);
        register(tEnv, env, "orders", ORDERS, data.orders, false, true);
        SqlTestTables.register(tEnv, env, "lineitem", LINEITEM, data.lineitems);
        register(tEnv, env, "customer_valid", CUSTOMER, data.validCustomers, false, false);
        register(tEnv, env, "customer_all", CUSTOMER, data.customers, false, false);
        IvmOptions options = IvmOptions.defaults()
                .withPrimaryKey("customer", "c_custkey")
                .withPrimaryKey("customer_all", "c_custkey");
        List<CloseableIterator<Row>> ivm = new ArrayList<>();
        List<CloseableIterator<Row>> flink = new ArrayList<>();
        List<CloseableIterator<DeadLetter>> dead = new ArrayList<>();
        for (String sql : queries) {
            SqlView view = FlinkIvmSql.sql(tEnv, sql, options.withSnapshotEvery(50));
            assertThat(view.explain()).as(sql).contains("p-hierarchical: no", "where the keys hold");
            ivm.add(tEnv.toChangelogStream(view.table()).collectAsync());
            dead.add(view.deadLetters().collectAsync());
            String valid = sql.contains("customer_all") ? sql : sql.replace("customer", "customer_valid");
            flink.add(tEnv.toChangelogStream(tEnv.sqlQuery(valid)).collectAsync());
        }
        env.execute("SQL keys: " + queries.size() + " queries");
        List<DeadLetter> letters = new ArrayList<>();
        for (int i = 0; i < queries.size(); i++) {
            List<List<Object>> expected = SqlTestTables.changelogResult(flink.get(i));
            assertThat(expected).as(queries.get(i)).isNotEmpty();
            assertThat(SqlTestTables.changelogResult(ivm.get(i)))
                    .as(queries.get(i))
                    .containsExactlyInAnyOrderElementsOf(expected);
            dead.get(i).forEachRemaining(letters::add);
            flink.get(i).close();
            ivm.get(i).close();
            dead.get(i).close();
        }
        return letters;
    }

    /**
     * A table; {@code delayed}: its rows wait a moment before they enter, so that other tables' rows
     * come first; {@code keyed}: declared with its primary key in the catalog.
     */
    private static void register(
            StreamTableEnvironment tEnv,
            StreamExecutionEnvironment env,
            String name,
            DataType type,
            List<Row> rows,
            boolean delayed,
            boolean keyed) {
        DataStream<Row> stream = env.fromData(rows, ExternalTypeInfo.<Row>of(type));
        if (delayed) {
            stream = stream.map(new Delay()).returns(ExternalTypeInfo.<Row>of(type));
        }
        Schema.Builder schema = Schema.newBuilder().fromRowDataType(type);
        if (keyed) {
            String first = ((org.apache.flink.table.types.logical.RowType) type.getLogicalType())
                    .getFieldNames()
                    .get(0);
            schema.primaryKey(first);
        }
        tEnv.createTemporaryView(name, tEnv.fromDataStream(stream, schema.build()));
    }

    /** Holds back the first row for a moment. */
    static final class Delay implements MapFunction<Row, Row> {
        private static final long serialVersionUID = 1L;
        private transient boolean waited;

        @Override
        public Row map(Row row) throws Exception {
            if (!waited) {
                Thread.sleep(1500);
                waited = true;
            }
            return row;
        }
    }

    /** Key-valid TPC-H-like rows; with {@code violate}, one more customer row that breaks the key. */
    static final class Data {
        final List<Row> customers = new ArrayList<>();
        final List<Row> validCustomers = new ArrayList<>();
        final List<Row> orders = new ArrayList<>();
        final List<Row> lineitems = new ArrayList<>();
        /** With a violation: the customer row that stays, and the later one with its key that breaks it. */
        Row kept;

        Row violation;

        Data(Random random, boolean violate) {
            String[] segments = {"BUILDING", "AUTO", "MACHINERY"};
            for (long c = 1; c <= 30; c++) {
                Row row = Row.of(c, "cust" + c, segments[random.nextInt(segments.length)]);
                customers.add(row);
                validCustomers.add(row);
                if (random.nextInt(4) == 0) {
                    customers.add(row); // an identical repeat: counted twice, as Flink SQL counts it
                    validCustomers.add(row);
                }
            }
            if (violate) {
                kept = customers.get(0);
                String other = kept.getField(2).equals("AUTO") ? "BUILDING" : "AUTO";
                violation = Row.of(kept.getField(0), kept.getField(1), other);
                customers.add(violation);
            }
            LocalDate start = LocalDate.of(1995, 1, 1);
            for (long o = 1; o <= 150; o++) {
                orders.add(Row.of(
                        o, 1 + (long) random.nextInt(34), start.plusDays(random.nextInt(150)), random.nextInt(3)));
                for (int l = 1; l <= random.nextInt(5); l++) {
                    lineitems.add(Row.of(
                            o,
                            l,
                            BigDecimal.valueOf(100 + random.nextInt(90_000), 2),
                            BigDecimal.valueOf(random.nextInt(11), 2),
                            start.plusDays(random.nextInt(200))));
                }
            }
        }
    }
}
