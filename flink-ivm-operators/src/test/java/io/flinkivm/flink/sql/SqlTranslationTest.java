package io.flinkivm.flink.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.query.Tuple;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SqlTranslationTest {
    static final Map<String, SqlTable> TPCH = SqlSchemas.parse(
            "customer(c_custkey BIGINT, c_name STRING, c_nationkey BIGINT, c_mktsegment STRING);"
                    + " orders(o_orderkey BIGINT, o_custkey BIGINT, o_orderdate DATE);"
                    + " lineitem(l_orderkey BIGINT, l_linenumber INT, l_extendedprice DECIMAL(15, 2), l_discount DECIMAL(15, 2))");

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

    @Test
    void tpchRevenue() throws Exception {
        SqlTranslation t = translate(REVENUE);
        assertThat(t.query())
                .hasToString(
                        "Q(o_orderkey,c_custkey) :- customer(c_custkey,'BUILDING'), orders(o_orderkey,c_custkey), lineitem(o_orderkey)");
        assertThat(t.semiring().name()).isEqualTo("natural");
        assertThat(t.columnNames()).containsExactly("o_orderkey", "o_custkey", "revenue");
        assertThat(t.columns().get(2).type()).hasToString("DECIMAL(38, 4)");
        SqlTranslation.TableInput lineitem = t.table("lineitem");
        assertThat(lineitem.inputColumns()).containsExactly("l_orderkey", "l_extendedprice", "l_discount");
        Object[] values = lineitem.fromValues(new Object[] {7L, new BigDecimal("100.50"), new BigDecimal("0.04")});
        assertThat(lineitem.inserts(values))
                .containsExactly(new SqlTranslation.Insert("lineitem", Tuple.of(7L), 964800L));
        assertThat(t.outputRow(Tuple.of(7L, 3L), 964800L)).containsExactly(7L, 3L, new BigDecimal("96.4800"));
        assertThat(t.explain())
                .contains(
                        "lineitem: columns l_orderkey, l_extendedprice, l_discount",
                        "payload l.l_extendedprice * (1 - l.l_discount) in units of 10^-4, a natural number",
                        "revenue DECIMAL(38, 4) = payload / 10^4");
    }

    @Test
    void negativePayloadIsRejectedWithItsReason() throws Exception {
        SqlTranslation.TableInput lineitem = translate(REVENUE).table("lineitem");
        Object[] values = lineitem.fromValues(new Object[] {7L, new BigDecimal("100.50"), new BigDecimal("1.50")});
        assertThatThrownBy(() -> lineitem.inserts(values))
                .isInstanceOf(RejectedRowException.class)
                .hasMessageContaining("is negative; SUM is maintained over the natural numbers");
        assertThatThrownBy(() -> lineitem.fromValues(new Object[] {null, BigDecimal.ONE, BigDecimal.ONE}))
                .hasMessageContaining("column l_orderkey of lineitem: NULL");
    }

    @Test
    void selfJoinWithOnePayloadIsOneRelation() {
        SqlTranslation t =
                translate("SELECT a.o_custkey, COUNT(*) FROM orders a JOIN orders b ON a.o_custkey = b.o_custkey"
                        + " GROUP BY a.o_custkey");
        assertThat(t.query()).hasToString("Q(o_custkey) :- orders(o_custkey), orders(o_custkey)");
        assertThat(t.columnNames()).containsExactly("o_custkey", "EXPR$1");
    }

    @Test
    void selfJoinWithDifferentPayloadsSplitsTheTable() throws Exception {
        SqlTranslation t = translate("SELECT a.l_orderkey, SUM(a.l_linenumber) FROM lineitem a, lineitem b"
                + " WHERE a.l_orderkey = b.l_orderkey AND b.l_linenumber = 1 GROUP BY a.l_orderkey");
        assertThat(t.query()).hasToString("Q(l_orderkey) :- lineitem_a(l_orderkey), lineitem_b(l_orderkey,1)");
        SqlTranslation.TableInput lineitem = t.table("lineitem");
        assertThat(lineitem.inserts(lineitem.fromText(List.of("5", "3", "1.00", "0.10"))))
                .containsExactly(
                        new SqlTranslation.Insert("lineitem_a", Tuple.of(5L), 3L),
                        new SqlTranslation.Insert("lineitem_b", Tuple.of(5L, 3L), 1L));
    }

    @Test
    void minOfASumIsMinPlus() throws Exception {
        SqlTranslation t = translate("SELECT c.c_custkey, MIN(l.l_extendedprice - l.l_discount + o.o_orderkey) AS m"
                + " FROM customer c JOIN orders o ON c.c_custkey = o.o_custkey JOIN lineitem l ON l.l_orderkey = o.o_orderkey"
                + " GROUP BY c.c_custkey");
        assertThat(t.semiring().name()).isEqualTo("min-plus");
        SqlTranslation.TableInput orders = t.table("orders");
        assertThat(orders.inserts(orders.fromText(List.of("4", "9", "2024-01-02"))))
                .containsExactly(new SqlTranslation.Insert("orders", Tuple.of(4L, 9L), 400.0));
        assertThat(t.outputRow(Tuple.of(9L), 1234.0)).containsExactly(9L, new BigDecimal("12.34"));
    }

    @Test
    void distinctIsBoolean() {
        SqlTranslation t = translate("SELECT DISTINCT c.c_name, o.o_orderdate FROM customer c, orders o"
                + " WHERE c.c_custkey = o.o_custkey AND o.o_orderdate = DATE '2024-05-01'");
        assertThat(t.semiring().name()).isEqualTo("boolean");
        assertThat(t.query()).hasToString("Q(c_name) :- customer(c_custkey,c_name), orders(c_custkey,'2024-05-01')");
        assertThat(t.outputRow(Tuple.of("Bob"), true)).containsExactly("Bob", java.time.LocalDate.of(2024, 5, 1));
    }

    @Test
    void refusals() {
        assertThatThrownBy(
                        () -> translate("SELECT c_name, COUNT(*) FROM customer WHERE c_custkey = 1 OR c_nationkey = 2"
                                + " GROUP BY c_name"))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("OR at line 1, column 45 is not supported")
                .hasMessageContaining("flink-ivm maintains SELECT [DISTINCT]");
        assertThatThrownBy(() -> translate("SELECT o.o_custkey, COUNT(*) FROM orders o LEFT JOIN customer c"
                        + " ON c.c_custkey = o.o_custkey GROUP BY o.o_custkey"))
                .hasMessageContaining("LEFT OUTER JOIN at line 1, column 49 is not supported");
        assertThatThrownBy(() ->
                        translate("SELECT o_custkey, COUNT(*) FROM orders GROUP BY o_custkey HAVING COUNT(*) > 1"))
                .hasMessageContaining("HAVING at line 1, column 66 is not supported");
        assertThatThrownBy(() -> translate("SELECT o_custkey, AVG(o_orderkey) FROM orders GROUP BY o_custkey"))
                .hasMessageContaining("AVG at line 1, column 19 is not supported");
        assertThatThrownBy(() -> translate("SELECT o.o_custkey, COUNT(*) FROM orders o, customer c"
                        + " WHERE o.o_custkey < c.c_custkey GROUP BY o.o_custkey"))
                .hasMessageContaining("the comparison < at line 1");
        assertThatThrownBy(() -> translate("SELECT SUM(o.o_orderkey + c.c_custkey) FROM orders o, customer c"))
                .hasMessageContaining("which mixes the tables o and c")
                .hasMessageContaining("SUM supports a product of factors");
        assertThatThrownBy(() -> translate("SELECT o_custkey FROM orders"))
                .hasMessageContaining("SELECT without DISTINCT, GROUP BY or an aggregate at line 1, column 8");
        assertThatThrownBy(
                        () -> translate("SELECT o_custkey, COUNT(*) FROM orders GROUP BY o_custkey ORDER BY o_custkey"))
                .hasMessageContaining("ORDER BY at line 1");
    }

    @Test
    void userErrorsNameThePosition() {
        assertThatThrownBy(() -> translate("SELECT o_custkey, COUNT(*) FROM orderz GROUP BY o_custkey"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("unknown table orderz at line 1, column 33");
        assertThatThrownBy(() -> translate("SELECT o_custky, COUNT(*) FROM orders GROUP BY o_custkey"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("column o_custky not found in any table of FROM (orders) at line 1, column 8");
        assertThatThrownBy(() -> translate("SELECT FROM orders"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("invalid SQL: ")
                .hasMessageContaining("line 1, column 8");
    }
}
