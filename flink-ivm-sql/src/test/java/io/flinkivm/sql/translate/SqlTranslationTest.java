package io.flinkivm.sql.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.BooleanSemiring;
import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.IntegerRing;
import io.flinkivm.core.semiring.Product;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Expressions;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

class SqlTranslationTest {
    static final Map<String, SqlTable> TPCH = SqlSchemas.parse(
            "customer(c_custkey BIGINT NOT NULL, c_name STRING, c_nationkey BIGINT, c_mktsegment STRING,"
                    + " PRIMARY KEY (c_custkey) NOT ENFORCED);"
                    + " orders(o_orderkey BIGINT NOT NULL, o_custkey BIGINT NOT NULL, o_orderdate DATE, PRIMARY KEY (o_orderkey));"
                    + " lineitem(l_orderkey BIGINT NOT NULL, l_linenumber INT, l_extendedprice DECIMAL(15, 2) NOT NULL,"
                    + " l_discount DECIMAL(15, 2) NOT NULL, l_shipmode STRING, l_quantity DECIMAL(15, 2))");

    static final String REVENUE =
            "SELECT o.o_orderkey, o.o_custkey, SUM(l.l_extendedprice * (1 - l.l_discount)) AS revenue\n"
                    + "FROM customer AS c\n"
                    + "JOIN orders AS o ON c.c_custkey = o.o_custkey\n"
                    + "JOIN lineitem AS l ON l.l_orderkey = o.o_orderkey\n"
                    + "WHERE c.c_mktsegment = 'BUILDING'\n"
                    + "GROUP BY o.o_orderkey, o.o_custkey";

    private static SqlTranslation translate(String sql) {
        return SqlTranslation.of(sql, TPCH);
    }

    private static List<TableInput.Insert> inserts(SqlTranslation t, String table, String... fields)
            throws RejectedRowException {
        TableInput input = t.table(table);
        return input.inserts(input.fromText(Arrays.asList(fields)));
    }

    private static Product product(long... values) {
        return Product.of(values);
    }

    @Test
    void eachTableFilterIsPushedToFlinkAsTextWithQuotedColumnsOrNotAtAll() {
        SqlTranslation t = translate("SELECT o.o_orderkey, SUM(l.l_extendedprice * (1 - l.l_discount)) AS revenue\n"
                + "FROM customer AS c JOIN orders AS o ON c.c_custkey = o.o_custkey\n"
                + "JOIN lineitem AS l ON l.l_orderkey = o.o_orderkey\n"
                + "WHERE c.c_mktsegment IN ('BUILDING', 'MACHINERY') AND o.o_orderdate < DATE '1995-03-15'\n"
                + "  AND NOT (l.l_shipmode LIKE 'AIR%' OR l.l_quantity / l.l_discount > 3)\n"
                + "GROUP BY o.o_orderkey");
        assertThat(t.table("customer").pushedFilter()).isEqualTo("(`c_mktsegment` IN ('BUILDING', 'MACHINERY'))");
        assertThat(t.table("orders").pushedFilter()).isEqualTo("(`o_orderdate` < DATE '1995-03-15')");
        // A division could fail in Flink's filter, where flink-ivm makes the row a dead letter.
        assertThat(t.table("lineitem").pushedFilter()).isNull();
        // A table feeding two relations: a row goes on if either relation takes it; not at all if one takes all.
        SqlTranslation self = translate("SELECT a.o_orderkey, COUNT(*) AS n FROM orders AS a JOIN orders AS b"
                + " ON a.o_custkey = b.o_custkey WHERE a.o_orderdate >= DATE '1995-01-01' + INTERVAL '3' MONTH"
                + " AND b.o_orderdate IS NOT NULL GROUP BY a.o_orderkey");
        assertThat(self.table("orders").pushedFilter())
                .isEqualTo("((`o_orderdate` >= (DATE '1995-01-01' + INTERVAL '3' MONTH))"
                        + " OR (`o_orderdate` IS NOT NULL))");
        assertThat(translate(REVENUE).table("orders").pushedFilter()).isNull();
        // Flink takes each text as a filter of the table.
        TableEnvironment tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        Table orders = tEnv.fromValues(
                DataTypes.ROW(
                        DataTypes.FIELD("o_orderkey", DataTypes.BIGINT()),
                        DataTypes.FIELD("o_orderdate", DataTypes.DATE())),
                Row.of(1L, LocalDate.of(1995, 5, 1)),
                Row.of(2L, null),
                Row.of(3L, LocalDate.of(1995, 1, 10)));
        Map<String, List<Long>> expected = Map.of(
                self.table("orders").pushedFilter(), List.of(1L, 3L),
                t.table("orders").pushedFilter(), List.of(3L));
        expected.forEach((filter, keys) -> {
            List<Object> rows = new ArrayList<>();
            orders.where(Expressions.callSql(filter))
                    .execute()
                    .collect()
                    .forEachRemaining(r -> rows.add(r.getField(0)));
            assertThat(rows).as(filter).containsExactlyInAnyOrderElementsOf(keys);
        });
    }

    @Test
    void aRowThatMakesNoInsertOfAMarkedRelationIsItsMark() throws Exception {
        // Q12's shape: orders are looked up by lineitem (absorbed); an order outside the date range is a mark.
        SqlTranslation t = translate("SELECT l.l_shipmode, COUNT(*) AS n FROM orders AS o JOIN lineitem AS l"
                + " ON l.l_orderkey = o.o_orderkey WHERE o.o_orderdate < DATE '1995-01-01' GROUP BY l.l_shipmode");
        TableInput orders = t.table("orders");
        Set<String> marked = Set.of("orders");
        Object[] late = orders.fromText(Arrays.asList("7", "1", "1996-02-01"));
        assertThat(orders.inserts(late)).isEmpty();
        assertThat(orders.marks(late, marked)).singleElement().satisfies(m -> {
            assertThat(m.relation()).isEqualTo("orders");
            assertThat(m.tuple()).isEqualTo(Tuple.of(7L));
            assertThat(m.payload()).isNull();
        });
        // A row that makes its insert is no mark; nor is any row of a relation that is not marked.
        Object[] early = orders.fromText(Arrays.asList("8", "1", "1994-02-01"));
        assertThat(orders.inserts(early)).hasSize(1);
        assertThat(orders.marks(early, marked)).isEmpty();
        assertThat(orders.marks(late, Set.of())).isEmpty();
    }

    @Test
    void behindItsPushedFilterATableNeitherReadsNorEvaluatesItsFilterColumnsAgain() throws Exception {
        SqlTranslation t = translate("SELECT o.o_custkey, SUM(l.l_extendedprice) AS total FROM orders AS o"
                + " JOIN lineitem AS l ON l.l_orderkey = o.o_orderkey"
                + " WHERE l.l_shipmode = 'MAIL' AND l.l_quantity > 2 GROUP BY o.o_custkey");
        TableInput lineitem = t.table("lineitem");
        assertThat(lineitem.inputColumns())
                .containsExactly("l_orderkey", "l_extendedprice", "l_shipmode", "l_quantity");
        TableInput behind = lineitem.prefiltered();
        assertThat(behind.inputColumns()).containsExactly("l_orderkey", "l_extendedprice");
        // Flink's Calc has taken the row: a row that the filter would drop is no longer checked here.
        Object[] values = behind.fromValues(new Object[] {7L, new BigDecimal("3.50")});
        assertThat(lineitem.inserts(values)).isEmpty();
        assertThat(behind.inserts(values))
                .singleElement()
                .satisfies(i -> assertThat(i.tuple()).isEqualTo(Tuple.of(7L)));
        // Without a filter, or feeding two relations (the pushed filter is their OR): unchanged.
        assertThat(t.table("orders").prefiltered()).isSameAs(t.table("orders"));
        SqlTranslation self = translate("SELECT a.o_orderkey, COUNT(*) AS n FROM orders AS a JOIN orders AS b"
                + " ON a.o_custkey = b.o_custkey WHERE a.o_orderdate < DATE '1995-01-01' GROUP BY a.o_orderkey");
        assertThat(self.table("orders").prefiltered()).isSameAs(self.table("orders"));
    }

    @Test
    void tpchRevenue() throws Exception {
        SqlTranslation t = translate(REVENUE);
        assertThat(t.query())
                .hasToString(
                        "Q(o_orderkey,c_custkey) :- customer(c_custkey), orders(o_orderkey,c_custkey), lineitem(o_orderkey)"
                                + " KEY customer(c_custkey), orders(o_orderkey)");
        assertThat(t.semiring().name()).isEqualTo("product(natural,integer)");
        assertThat(t.columnNames()).containsExactly("o_orderkey", "o_custkey", "revenue");
        assertThat(t.columns().get(2).type()).hasToString("DECIMAL(38, 4)");
        TableInput lineitem = t.table("lineitem");
        assertThat(lineitem.inputColumns()).containsExactly("l_orderkey", "l_extendedprice", "l_discount");
        Object[] values = lineitem.fromValues(new Object[] {7L, new BigDecimal("100.50"), new BigDecimal("0.04")});
        assertThat(lineitem.inserts(values))
                .containsExactly(new TableInput.Insert("lineitem", Tuple.of(7L), product(1, 964800)));
        assertThat(t.outputRow(Tuple.of(7L, 3L), product(2, 964800)))
                .containsExactly(7L, 3L, new BigDecimal("96.4800"));
        assertThat(inserts(t, "customer", "3", "Bob", "1", "BUILDING")).hasSize(1);
        assertThat(inserts(t, "customer", "3", "Bob", "1", "MACHINERY")).isEmpty();
        assertThat(t.keys()).extracting(SqlTranslation.RelationKey::relation).containsExactly("customer", "orders");
        assertThat(t.explain())
                .contains(
                        "customer: columns c_custkey, c_mktsegment",
                        "→ customer (alias c), where c_mktsegment = 'BUILDING', payload count 1, the one in every component",
                        "payload count 1, c1 = (l_extendedprice * (1 - l_discount)) in units of 10^-4",
                        "keys:     customer by c_custkey; orders by o_orderkey",
                        "revenue DECIMAL(38, 4) = c1/10^4, NULL if count = 0");
    }

    @Test
    void negativeSumsAreExact() throws Exception {
        SqlTranslation t = translate(REVENUE);
        TableInput lineitem = t.table("lineitem");
        Object[] values = lineitem.fromValues(new Object[] {7L, new BigDecimal("100.50"), new BigDecimal("1.50")});
        assertThat(lineitem.inserts(values))
                .containsExactly(new TableInput.Insert("lineitem", Tuple.of(7L), product(1, -502500)));
        assertThat(t.outputRow(Tuple.of(7L, 3L), product(2, 0))).containsExactly(7L, 3L, new BigDecimal("0.0000"));
    }

    @Test
    void filtersOfAnyShapeOnOneTable() throws Exception {
        SqlTranslation t = translate("SELECT l_shipmode, COUNT(*) FROM lineitem"
                + " WHERE (l_shipmode IN ('MAIL', 'SHIP') OR l_shipmode LIKE 'A%R_') AND l_quantity BETWEEN 1 AND 10.5"
                + " AND NOT l_linenumber IS NULL AND CASE WHEN l_discount > 0.5 THEN FALSE ELSE TRUE END"
                + " GROUP BY l_shipmode");
        assertThat(t.query()).hasToString("Q(l_shipmode) :- lineitem(l_shipmode)");
        assertThat(t.semiring().name()).isEqualTo("natural");
        assertThat(inserts(t, "lineitem", "1", "1", "2.00", "0.10", "MAIL", "3"))
                .hasSize(1);
        assertThat(inserts(t, "lineitem", "1", "1", "2.00", "0.10", "AIR", "3")).isEmpty();
        assertThat(inserts(t, "lineitem", "1", "1", "2.00", "0.10", "AIRE", "3"))
                .hasSize(1);
        assertThat(inserts(t, "lineitem", "1", "1", "2.00", "0.10", "SHIP", "10.6"))
                .isEmpty();
        assertThat(inserts(t, "lineitem", "1", "1", "2.00", "0.90", "SHIP", "3"))
                .isEmpty();
        // Three-valued logic: a NULL makes the condition UNKNOWN, and the row is filtered out.
        assertThat(inserts(t, "lineitem", "1", "", "2.00", "0.10", "MAIL", "3")).isEmpty();
        assertThat(inserts(t, "lineitem", "1", "1", "2.00", "0.10", "MAIL", "")).isEmpty();
        assertThat(inserts(t, "lineitem", "1", "1", "2.00", "0.10", "\\N", "3")).isEmpty();
    }

    @Test
    void aComparisonWithinARowAndDateArithmeticAreFilters() throws Exception {
        SqlTranslation t =
                translate("SELECT o_custkey, COUNT(*) FROM orders o JOIN lineitem l ON l_orderkey = o_orderkey"
                        + " WHERE o_orderdate < DATE '1995-03-15' + INTERVAL '1' MONTH AND o_orderkey < o_custkey"
                        + " GROUP BY o_custkey");
        assertThat(t.query())
                .hasToString(
                        "Q(o_custkey) :- orders(o_orderkey,o_custkey), lineitem(o_orderkey) KEY orders(o_orderkey)");
        assertThat(inserts(t, "orders", "1", "2", "1995-04-14")).hasSize(1);
        assertThat(inserts(t, "orders", "1", "2", "1995-04-15")).isEmpty();
        assertThat(inserts(t, "orders", "3", "2", "1995-01-01")).isEmpty();
    }

    @Test
    void aNullThatWouldJoinFiltersTheRowOutAndAGroupedNullGroups() throws Exception {
        SqlTranslation t = translate("SELECT l_shipmode, COUNT(*) FROM orders JOIN lineitem ON l_linenumber = o_custkey"
                + " GROUP BY l_shipmode");
        assertThat(inserts(t, "lineitem", "1", "", "2.00", "0.10", "MAIL", "3")).isEmpty();
        List<TableInput.Insert> nullMode = inserts(t, "lineitem", "1", "4", "2.00", "0.10", "\\N", "3");
        assertThat(nullMode)
                .containsExactly(new TableInput.Insert("lineitem", Tuple.of(4L, SqlType.NULL_TUPLE_VALUE), 1L));
        assertThat(t.outputRow(Tuple.of(SqlType.NULL_TUPLE_VALUE), 2L)).containsExactly(null, 2L);
        assertThat(t.columns().get(0).nullable()).isTrue();
    }

    @Test
    void severalAggregatesShareComponents() throws Exception {
        SqlTranslation t = translate("SELECT o_custkey, SUM(l_quantity) AS q, AVG(l_quantity) AS a, COUNT(l_quantity),"
                + " COUNT(*), MIN(l_extendedprice), MAX(l_discount + o_orderkey) FROM orders JOIN lineitem ON l_orderkey = o_orderkey"
                + " GROUP BY o_custkey");
        // MIN of one table's column is (min, max) over its type; MAX of a sum over two tables is max-plus.
        assertThat(t.semiring().name()).isEqualTo("product(natural,integer,natural,min over DECIMAL(15, 2),max)");
        assertThat(t.columns())
                .extracting(c -> c.type().toString())
                .containsExactly(
                        "BIGINT",
                        "DECIMAL(38, 2)",
                        "DECIMAL(38, 6)",
                        "BIGINT",
                        "BIGINT",
                        "DECIMAL(15, 2)",
                        "DECIMAL(22, 2)");
        assertThat(inserts(t, "lineitem", "1", "1", "2.50", "0.10", "MAIL", "3.00"))
                .containsExactly(new TableInput.Insert("lineitem", Tuple.of(1L), product(1, 300, 1, 250, 10)));
        assertThat(inserts(t, "lineitem", "1", "1", "2.50", "0.10", "MAIL", "\\N"))
                .containsExactly(new TableInput.Insert("lineitem", Tuple.of(1L), product(1, 0, 0, 250, 10)));
        // An order holds no l_extendedprice: the one of MIN over a chain, ⊥.
        assertThat(inserts(t, "orders", "1", "9", "1995-01-01"))
                .containsExactly(
                        new TableInput.Insert("orders", Tuple.of(1L, 9L), product(1, 1, 1, Chain.BOTTOM, 100)));
        assertThat(t.outputRow(Tuple.of(9L), product(3, 700, 2, 125, 210)))
                .containsExactly(
                        9L,
                        new BigDecimal("7.00"),
                        new BigDecimal("3.500000"),
                        2L,
                        3L,
                        new BigDecimal("1.25"),
                        new BigDecimal("2.10"));
        assertThat(t.outputRow(Tuple.of(9L), product(1, 0, 0, 125, 210)))
                .containsExactly(9L, null, null, 0L, 1L, new BigDecimal("1.25"), new BigDecimal("2.10"));
    }

    @Test
    void aSumOfProductsOfTablesIsOneComponentPerProduct() throws Exception {
        SqlTranslation t =
                translate("SELECT o_custkey, SUM(l_extendedprice * (1 - l_discount) - o_orderkey * l_quantity)"
                        + " FROM orders JOIN lineitem ON l_orderkey = o_orderkey GROUP BY o_custkey");
        assertThat(t.semiring().name()).isEqualTo("product(natural,integer,integer,natural)");
        assertThat(t.columns().get(1).type()).hasToString("DECIMAL(38, 4)");
        assertThat(inserts(t, "lineitem", "1", "1", "10.00", "0.10", "MAIL", "2.00"))
                .containsExactly(new TableInput.Insert("lineitem", Tuple.of(1L), product(1, 90000, 200, 1)));
        assertThat(inserts(t, "orders", "1", "9", "1995-01-01"))
                .containsExactly(new TableInput.Insert("orders", Tuple.of(1L, 9L), product(1, 1, 1, 1)));
        // 9.0000 - 1 * 2.00 = 7.0000
        assertThat(t.outputRow(Tuple.of(9L), product(1, 90000, 200, 1))).containsExactly(9L, new BigDecimal("7.0000"));
    }

    @Test
    void avgOfAnIntegerTruncatesAsFlinkDoes() throws Exception {
        SqlTranslation t = translate("SELECT AVG(l_linenumber) FROM lineitem");
        assertThat(t.columns().get(0).type()).hasToString("INT");
        assertThat(t.outputRow(Tuple.EMPTY, product(3, -7, 3))).containsExactly(-2);
    }

    @Test
    void plainSelectIsABag() throws Exception {
        SqlTranslation t =
                translate("SELECT o_orderkey, l_shipmode FROM orders, lineitem WHERE l_orderkey = o_orderkey");
        assertThat(t.isBag()).isTrue();
        assertThat(t.semiring().name()).isEqualTo("natural");
        assertThat(t.query())
                .hasToString(
                        "Q(o_orderkey,l_shipmode) :- orders(o_orderkey), lineitem(o_orderkey,l_shipmode) KEY orders(o_orderkey)");
        assertThat(t.copies(3L)).isEqualTo(3);
        assertThat(translate("SELECT * FROM orders").columnNames())
                .containsExactly("o_orderkey", "o_custkey", "o_orderdate");
    }

    @Test
    void distinctIsBooleanAndAConstantClassIsAFilterOnEveryTable() throws Exception {
        SqlTranslation t = translate("SELECT DISTINCT c.c_name, o.o_orderdate FROM customer c, orders o"
                + " WHERE c.c_custkey = o.o_custkey AND o.o_orderdate = DATE '2024-05-01' AND o.o_custkey = 5");
        assertThat(t.semiring().name()).isEqualTo("boolean");
        assertThat(t.query()).hasToString("Q(c_name) :- customer(c_name), orders()");
        assertThat(inserts(t, "customer", "6", "Bob", "1", "X")).isEmpty();
        assertThat(inserts(t, "customer", "5", "Bob", "1", "X")).hasSize(1);
        assertThat(t.outputRow(Tuple.of("Bob"), true)).containsExactly("Bob", LocalDate.of(2024, 5, 1));
    }

    @Test
    void selfJoins() throws Exception {
        SqlTranslation one =
                translate("SELECT a.o_custkey, COUNT(*) FROM orders a JOIN orders b ON a.o_custkey = b.o_custkey"
                        + " GROUP BY a.o_custkey");
        assertThat(one.query()).hasToString("Q(o_custkey) :- orders(o_custkey), orders(o_custkey)");
        SqlTranslation split = translate("SELECT a.l_orderkey, SUM(a.l_linenumber) FROM lineitem a, lineitem b"
                + " WHERE a.l_orderkey = b.l_orderkey AND b.l_linenumber = 1 GROUP BY a.l_orderkey");
        assertThat(split.query()).hasToString("Q(l_orderkey) :- lineitem_a(l_orderkey), lineitem_b(l_orderkey)");
        assertThat(inserts(split, "lineitem", "5", "3", "1.00", "0.10", "M", "1"))
                .containsExactly(new TableInput.Insert("lineitem_a", Tuple.of(5L), product(1, 3, 1)));
    }

    @Test
    void groupByAnExpressionOfOneTable() throws Exception {
        SqlTranslation t = translate("SELECT EXTRACT(YEAR FROM o_orderdate) AS y, COUNT(*) FROM orders"
                + " GROUP BY EXTRACT(YEAR FROM o_orderdate)");
        assertThat(t.query()).hasToString("Q(V) :- orders(V)");
        assertThat(inserts(t, "orders", "1", "2", "1995-04-14"))
                .containsExactly(new TableInput.Insert("orders", Tuple.of(1995L), 1L));
    }

    @Test
    void primaryKeysPutTpchQ3AsWrittenOnTheConstantTimePlan() {
        SqlTranslation t =
                translate("SELECT l_orderkey, SUM(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate"
                        + " FROM customer, orders, lineitem WHERE c_mktsegment = 'BUILDING' AND c_custkey = o_custkey"
                        + " AND l_orderkey = o_orderkey AND o_orderdate < DATE '1995-03-15'"
                        + " GROUP BY l_orderkey, o_orderdate");
        assertThat(t.query())
                .hasToString(
                        "Q(o_orderkey,o_orderdate) :- customer(c_custkey), orders(o_orderkey,c_custkey,o_orderdate),"
                                + " lineitem(o_orderkey) KEY customer(c_custkey), orders(o_orderkey)");
        MaintenancePlan plan = Planner.plan(t.query(), t.semiring());
        assertThat(plan.explain())
                .contains("the head gains c_custkey: orders(o_orderkey) → c_custkey")
                .contains("Guarantee: amortized O(1) per insert")
                .contains("where the keys hold");
    }

    @Test
    void primaryKeysPutRevenuePerSegmentOnTheConstantTimePlan() {
        SqlTranslation t =
                translate("SELECT c_mktsegment, SUM(l_extendedprice) FROM customer JOIN orders ON c_custkey = o_custkey"
                        + " JOIN lineitem ON l_orderkey = o_orderkey GROUP BY c_mktsegment");
        MaintenancePlan plan = Planner.plan(t.query(), t.semiring());
        assertThat(plan.explain())
                .contains("p-hierarchical: no")
                .contains("lineitem(o_orderkey) gains c_custkey,c_mktsegment")
                .contains("Guarantee: amortized O(1) per insert");
        SqlTranslation noKeys = SqlTranslation.of(
                "SELECT c_mktsegment, COUNT(*) FROM customer JOIN orders ON c_custkey = o_custkey GROUP BY c_mktsegment",
                SqlSchemas.parse(
                        "customer(c_custkey BIGINT, c_mktsegment STRING); orders(o_orderkey BIGINT, o_custkey BIGINT)"));
        assertThat(Planner.plan(noKeys.query(), noKeys.semiring()).explain()).contains("Plan: fallback");
    }

    @Test
    void aSumsPayloadIsExactUnitsOrTheRowsDeadLetterBeyond64Bits() throws Exception {
        SqlTranslation t = SqlTranslation.of(
                "SELECT k, SUM(x * y) AS s FROM t GROUP BY k",
                SqlSchemas.parse("t(k BIGINT NOT NULL, x DECIMAL(38, 2), y DECIMAL(10, 1))"));
        // 12.50 · -0.3 = -3.750, in units of 10^-3 (beside the count and the count of non-NULL values).
        assertThat(inserts(t, "t", "1", "12.50", "-0.3").get(0).payload()).isEqualTo(product(1, -3750, 1));
        assertThat(inserts(t, "t", "1", "0", "2.0").get(0).payload()).isEqualTo(product(1, 0, 1));
        assertThatThrownBy(() -> inserts(t, "t", "1", "99999999999999999999.99", "1.0"))
                .isInstanceOf(RejectedRowException.class)
                .hasMessage("(x * y) = 99999999999999999999.990 (99999999999999999999990 units of 10^-3)"
                        + " exceeds 64 bits");
    }

    @Test
    void refusals() {
        assertThatThrownBy(() -> translate("SELECT o.o_custkey, COUNT(*) FROM orders o, customer c"
                        + " WHERE o.o_custkey < c.c_custkey GROUP BY o.o_custkey"))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("the condition o.o_custkey < c.c_custkey across the tables o and c at line 1")
                .hasMessageContaining("it is the only condition refused");
        assertThatThrownBy(() -> translate("SELECT o.o_custkey, COUNT(*) FROM orders o LEFT JOIN customer c"
                        + " ON c.c_custkey = o.o_custkey GROUP BY o.o_custkey"))
                .hasMessageContaining("LEFT OUTER JOIN at line 1, column 49 is not supported");
        assertThatThrownBy(() ->
                        translate("SELECT o_custkey, COUNT(*) FROM orders GROUP BY o_custkey HAVING COUNT(*) > 1"))
                .hasMessageContaining("HAVING at line 1, column 66 is not supported");
        assertThatThrownBy(() -> translate("SELECT SUM(DISTINCT o_custkey) FROM orders"))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("SUM(DISTINCT ...) at line 1, column 8 is not supported")
                .hasMessageContaining("COUNT(DISTINCT ...) is maintained");
        assertThatThrownBy(() -> translate("SELECT SUM(CASE WHEN o.o_orderkey > 1 THEN c.c_custkey ELSE 0 END)"
                        + " FROM orders o, customer c"))
                .hasMessageContaining("CASE over the tables o and c");
        assertThatThrownBy(() -> translate("SELECT MIN(o.o_orderkey * c.c_custkey) FROM orders o, customer c"))
                .hasMessageContaining("the product of o and c in MIN");
        assertThatThrownBy(
                        () -> translate("SELECT o_custkey, COUNT(*) FROM orders GROUP BY o_custkey ORDER BY o_custkey"))
                .hasMessageContaining("ORDER BY at line 1");
        assertThatThrownBy(() -> translate("SELECT o_custkey FROM orders WHERE 1 = 2"))
                .hasMessageContaining("it is never true");
    }

    @Test
    void nestedQueriesAndGroupWindowsAreNamedAsSuch() {
        // Before names are resolved: not "column l_orderkey not found in any table of FROM (orders)".
        assertThatThrownBy(() -> translate("SELECT o_custkey, COUNT(*) FROM orders WHERE EXISTS (SELECT * FROM"
                        + " lineitem WHERE l_orderkey = o_orderkey) GROUP BY o_custkey"))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("a subquery in WHERE at line 1, column 53 is not supported")
                .hasMessageContaining("write a join in FROM where it means the same");
        assertThatThrownBy(() -> translate("SELECT o_custkey FROM orders WHERE o_orderkey IN (SELECT l_orderkey FROM"
                        + " lineitem GROUP BY l_orderkey HAVING SUM(l_quantity) > 300)"))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("a subquery in WHERE at line 1, column 51 is not supported");
        assertThatThrownBy(() -> translate("SELECT o_custkey, (SELECT COUNT(*) FROM lineitem) FROM orders"))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("a subquery in SELECT at line 1, column 19 is not supported");
        assertThatThrownBy(() -> translate("SELECT o_custkey FROM orders JOIN customer ON c_custkey = o_custkey"
                        + " AND c_custkey IN (SELECT o_custkey FROM orders)"))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("a subquery in ON at line 1, column 87");
        assertThatThrownBy(() -> translate("SELECT c_count, COUNT(*) FROM (SELECT o_custkey, COUNT(*) FROM orders"
                        + " GROUP BY o_custkey) AS c_orders (c_custkey, c_count) GROUP BY c_count"))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("a subquery in FROM at line 1, column 32 is not supported");
        assertThatThrownBy(() -> translate("SELECT o_custkey, COUNT(*) FROM orders"
                        + " GROUP BY o_custkey, TUMBLE(o_orderdate, INTERVAL '1' DAY)"))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("the group window TUMBLE(o_orderdate, INTERVAL '1' DAY) at line 1, column 60 is"
                        + " not supported: windows are not conjunctive queries");
    }

    @Test
    void userErrorsNameThePosition() {
        assertThatThrownBy(() -> translate("SELECT o_custkey, COUNT(*) FROM orderz GROUP BY o_custkey"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("unknown table orderz at line 1, column 33");
        assertThatThrownBy(() -> translate("SELECT o_custky, COUNT(*) FROM orders GROUP BY o_custkey"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("column o_custky not found in any table of FROM (orders) at line 1, column 8");
        assertThatThrownBy(() -> translate("SELECT o_custkey FROM orders WHERE o_orderdate > 5"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("cannot compare o_orderdate (DATE) with 5 (INT) at line 1, column 36");
        assertThatThrownBy(() -> translate("SELECT o_orderkey, COUNT(*) FROM orders GROUP BY o_custkey"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("o_orderkey is neither grouped nor aggregated");
        assertThatThrownBy(() -> translate("SELECT FROM orders"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("invalid SQL: ")
                .hasMessageContaining("line 1, column 8");
    }

    @Test
    void deletesPlanOverTheRingOfTheAggregates() throws Exception {
        SqlTranslation t = translate(REVENUE);
        Inputs deletes = Inputs.changelog(List.of("lineitem"));
        assertThat(t.semiringFor(Inputs.INSERT_ONLY)).isSameAs(t.semiring());
        assertThat(t.semiringFor(deletes).name()).isEqualTo("product(integer,integer)");
        // The translation's payload of a row, in the ring: count 1, revenue 100 · (1 - 0.10) in cents.
        Object payload = inserts(t, "lineitem", "7", "1", "100.00", "0.10", "AIR", "1")
                .get(0)
                .payload();
        assertThat(SqlTranslation.payloadIn(t.semiringFor(deletes), payload)).isEqualTo(product(1, 900000));
    }

    @Test
    void aBagOrDistinctRowsCountOverTheIntegersUnderDeletes() {
        Inputs deletes = Inputs.changelog(List.of("orders"));
        SqlTranslation bag = translate("SELECT o.o_custkey FROM orders o");
        assertThat(bag.semiringFor(deletes)).isSameAs(IntegerRing.INSTANCE);
        SqlTranslation distinct = translate("SELECT DISTINCT o.o_custkey FROM orders o");
        assertThat(distinct.isDistinct()).isTrue();
        assertThat(distinct.semiringFor(Inputs.INSERT_ONLY)).isSameAs(BooleanSemiring.INSTANCE);
        assertThat(distinct.semiringFor(deletes)).isSameAs(IntegerRing.INSTANCE);
        // A distinct row's payload, true, is a count of one in the ring.
        assertThat(SqlTranslation.payloadIn(IntegerRing.INSTANCE, Boolean.TRUE)).isEqualTo(1L);
    }
}
