package io.flinkivm.sql.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.sql.rows.FlinkTables;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Expressions;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Expressions of one row that flink-ivm leaves to Flink ({@link ComputedColumn}), typed by a real Flink
 * environment: which part of an expression goes, its Flink SQL text ({@link FlinkSqlText}), one column per table
 * and text, the values a row's text gives, and what is refused.
 */
class ComputedColumnTest {

    /** A user's scalar function. */
    public static final class Shout extends ScalarFunction {
        public String eval(String s) {
            return s == null ? null : s + "!";
        }
    }

    private static TableEnvironment tEnv;
    private static SqlTranslation.ExpressionTyper flink;

    @BeforeAll
    static void environment() {
        tEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        tEnv.createTemporarySystemFunction("shout", Shout.class);
        tEnv.executeSql("CREATE TEMPORARY TABLE orders (o_orderkey BIGINT NOT NULL, o_custkey BIGINT NOT NULL,"
                + " o_orderdate DATE, o_comment STRING) WITH ('connector' = 'datagen')");
        tEnv.executeSql("CREATE TEMPORARY TABLE customer (c_custkey BIGINT NOT NULL, c_name STRING, `odd``name` STRING)"
                + " WITH ('connector' = 'datagen')");
        flink = FlinkTables.typer(tEnv);
    }

    private static SqlTranslation translate(String sql) {
        return SqlTranslation.of(
                sql, path -> path.size() == 1 ? FlinkTables.schema(path.get(0), tEnv.from(path.get(0))) : null, flink);
    }

    @Test
    void theInnermostCallFlinkIvmDoesNotTakeIsComputedAndTheRestStaysCompiled() throws Exception {
        SqlTranslation t = translate("SELECT o.o_custkey, COUNT(*) AS n FROM orders AS o"
                + " WHERE UPPER(shout(o.o_comment)) <> 'NO!' GROUP BY o.o_custkey");
        TableInput orders = t.table("orders");
        assertThat(orders.computedColumns()).singleElement().satisfies(c -> {
            assertThat(c.sql()).isEqualTo("shout(`o_comment`)");
            assertThat(c.name()).isEqualTo("ivm$0");
            assertThat(c.function()).isEqualTo("shout");
            assertThat(c.type()).isEqualTo(SqlType.STRING);
            assertThat(c.nullable()).isTrue();
            assertThat(c.index()).isEqualTo(4);
            assertThat(c.arguments()).containsExactly(3);
        });
        assertThat(orders.inputColumns()).containsExactly("o_custkey", "ivm$0");
        assertThat(orders.projection()).isEqualTo("SELECT `o_custkey`, shout(`o_comment`) AS `ivm$0` FROM `orders`");
        assertThat(t.explain()).contains("where UPPER(shout(`o_comment`)) <> 'NO!'");
        // Flink computes the value; flink-ivm applies UPPER and the comparison to it.
        Object[] values = orders.fromText(Arrays.asList("1", "7", "2024-05-01", "no"));
        assertThat(values[3]).as("an argument of the computed column is read").isEqualTo("no");
        orders.setComputed(values, orders.computedColumns().get(0), "no!");
        assertThat(orders.inserts(values)).isEmpty();
        orders.setComputed(values, orders.computedColumns().get(0), "yes!");
        assertThat(orders.inserts(values))
                .singleElement()
                .satisfies(i -> assertThat(i.tuple()).isEqualTo(Tuple.of(7L)));
        assertThatThrownBy(() ->
                        orders.setComputed(values, orders.computedColumns().get(0), 3))
                .isInstanceOf(RejectedRowException.class)
                .hasMessageContaining("shout(`o_comment`) of orders: expected a value of type STRING, got Integer");
    }

    @Test
    void anExpressionOfATypeFlinkIvmDoesNotHoldGoesWithTheCallAroundIt() {
        SqlTranslation t = translate("SELECT o_custkey, COUNT(*) AS n FROM orders"
                + " WHERE TO_TIMESTAMP_LTZ(o_orderkey, 3) > TO_TIMESTAMP_LTZ(0, 3) GROUP BY o_custkey");
        assertThat(t.table("orders").computedColumns()).singleElement().satisfies(c -> {
            assertThat(c.sql()).isEqualTo("(TO_TIMESTAMP_LTZ(`o_orderkey`, 3) > TO_TIMESTAMP_LTZ(0, 3))");
            assertThat(c.type()).isEqualTo(SqlType.BOOLEAN);
        });
        assertThatThrownBy(() -> translate("SELECT TO_TIMESTAMP_LTZ(o_orderkey, 3) AS t FROM orders"))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageStartingWith("TO_TIMESTAMP_LTZ(o_orderkey, 3) of type TIMESTAMP_LTZ(3) (as Flink types it)"
                        + " at line 1, column 8 is not supported: flink-ivm holds values of types");
    }

    @Test
    void oneColumnPerTableAndTextSharedByItsAliasesEachAliasRenamedAway() {
        SqlTranslation t = translate("SELECT DAYOFMONTH(a.o_orderdate) AS d, COUNT(*) AS n"
                + " FROM orders AS a JOIN orders AS b"
                + " ON DAYOFMONTH(a.o_orderdate) = DAYOFMONTH(b.o_orderdate)"
                + " JOIN customer AS c ON c.c_custkey = a.o_custkey"
                + " WHERE CONCAT(c.c_name, 'é''s', '😀', 'x') <> 'x' GROUP BY DAYOFMONTH(a.o_orderdate)");
        assertThat(t.query().toString()).startsWith("Q(V) :- orders_a(o_custkey,V), orders_b(V), customer(o_custkey)");
        assertThat(t.table("orders").computedColumns())
                .singleElement()
                .satisfies(c -> assertThat(c.sql()).isEqualTo("DAYOFMONTH(`o_orderdate`)"));
        String filter = t.table("customer").pushedFilter();
        assertThat(filter).isEqualTo("((CONCAT(`c_name`, 'é''s', '😀', 'x')) <> 'x')");
        // Flink reads the texts as the query meant them.
        List<Object> kept = new ArrayList<>();
        tEnv.fromValues(Row.of("x", 1L), Row.of("ab", 2L))
                .as("c_name", "id")
                .where(Expressions.callSql(filter))
                .select(Expressions.$("id"), Expressions.callSql("CONCAT(`c_name`, 'é''s', '😀', 'x')"))
                .execute()
                .collect()
                .forEachRemaining(r -> kept.add(r.getField(0) + " " + r.getField(1)));
        assertThat(kept).containsExactlyInAnyOrder("1 xé's😀x", "2 abé's😀x");
    }

    @Test
    void aQuotedNameStaysQuoted() {
        SqlTranslation t = translate("SELECT c_custkey, COUNT(*) AS n FROM customer WHERE shout(`odd``name`) = 'a!'"
                + " GROUP BY c_custkey");
        assertThat(t.table("customer").computedColumns())
                .singleElement()
                .satisfies(c -> assertThat(c.sql()).isEqualTo("shout(`odd``name`)"));
    }

    @Test
    void whatFlinkCannotProjectIsRefusedAsBefore() {
        // Without an environment to type them, calls flink-ivm does not take are refused.
        assertThatThrownBy(() -> SqlTranslation.of(
                        "SELECT DATE_FORMAT(o_orderdate, 'yyyy') AS y FROM orders",
                        SqlSchemas.parse("orders(o_orderkey BIGINT, o_orderdate DATE)")))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageStartingWith("the operator DATE_FORMAT at line 1, column 8 is not supported");
        // A call of no column, an aggregate inside a row's call, and an expression over two tables stay refused.
        assertThatThrownBy(() -> translate(
                        "SELECT o_custkey FROM orders WHERE DATE_FORMAT(DATE '2024-01-01', 'yyyy')" + " = '2024'"))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageStartingWith("the operator DATE_FORMAT at line 1, column 36 is not supported");
        assertThatThrownBy(() -> translate("SELECT o_custkey, SUM(shout(CAST(COUNT(*) AS STRING))) AS n FROM orders"
                        + " GROUP BY o_custkey"))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("the aggregate COUNT(*) inside an expression");
        assertThatThrownBy(() -> translate("SELECT CONCAT(c.c_name, o.o_comment, 'x') AS names FROM orders AS o,"
                        + " customer AS c WHERE c.c_custkey = o.o_custkey"))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("an expression in SELECT is over one table's row");
        // An expression of flink-ivm's that is wrong stays the user's mistake, with Flink's reason too.
        assertThatThrownBy(() -> translate("SELECT o_custkey FROM orders WHERE o_comment + 1 > 2"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("o_comment is a STRING, not a number at line 1, column 36 (nor does Flink take"
                        + " (`o_comment` + 1)");
    }

    @Test
    void aComputedDateKeepsItsTypeAndAComputedFilterIsPushedAsItsExpression() throws Exception {
        SqlTranslation t = translate("SELECT o_custkey, MIN(TO_DATE(o_comment)) AS eom FROM orders"
                + " WHERE DAYOFWEEK(o_orderdate) = 2 GROUP BY o_custkey");
        TableInput orders = t.table("orders");
        assertThat(orders.computedColumns())
                .extracting(ComputedColumn::sql, c -> c.type().kind())
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("DAYOFWEEK(`o_orderdate`)", SqlType.Kind.BIGINT),
                        org.assertj.core.groups.Tuple.tuple("TO_DATE(`o_comment`)", SqlType.Kind.DATE));
        assertThat(orders.pushedFilter()).isEqualTo("((DAYOFWEEK(`o_orderdate`)) = 2)");
        assertThat(t.columns().get(1).type().kind()).isEqualTo(SqlType.Kind.DATE);
        Object[] values = orders.fromText(Arrays.asList("1", "7", "2024-05-06", "c"));
        orders.setComputed(values, orders.computedColumns().get(0), 2L);
        orders.setComputed(values, orders.computedColumns().get(1), LocalDate.of(2024, 5, 31));
        assertThat(orders.inserts(values))
                .singleElement()
                .satisfies(i -> assertThat(i.tuple()).isEqualTo(Tuple.of(7L)));
    }
}
