package io.flinkivm.sql.rows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.sql.translate.RejectedRowException;
import io.flinkivm.sql.translate.SqlSchemas;
import io.flinkivm.sql.translate.SqlTranslation;
import io.flinkivm.sql.translate.TableInput;
import java.math.BigDecimal;
import java.time.LocalDate;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.junit.jupiter.api.Test;

class InternalRowsTest {
    private static SqlTranslation translate(String sql) {
        return SqlTranslation.of(
                sql,
                SqlSchemas.parse("orders(o_orderkey BIGINT NOT NULL, o_custkey BIGINT NOT NULL, o_orderdate DATE,"
                        + " PRIMARY KEY (o_orderkey)); lineitem(l_orderkey BIGINT NOT NULL, l_linenumber INT,"
                        + " l_extendedprice DECIMAL(15, 2) NOT NULL, l_discount DECIMAL(15, 2) NOT NULL,"
                        + " l_shipmode STRING, l_quantity DECIMAL(15, 2))"));
    }

    @Test
    void flinksInternalRowsGiveTheSameValuesAsJavaRowsAndTheirText() throws Exception {
        SqlTranslation t = translate("SELECT o_orderdate, l_shipmode, SUM(l_extendedprice), COUNT(l_linenumber)"
                + " FROM orders JOIN lineitem ON o_orderkey = l_orderkey GROUP BY o_orderdate, l_shipmode");
        TableInput lineitem = t.table("lineitem");
        assertThat(lineitem.inputColumns())
                .containsExactly("l_orderkey", "l_linenumber", "l_extendedprice", "l_shipmode");
        Object[] fromJava = lineitem.fromValues(new Object[] {7L, 3, new BigDecimal("12.50"), "MAIL"});
        GenericRowData row = GenericRowData.of(
                7L, 3, DecimalData.fromBigDecimal(new BigDecimal("12.50"), 15, 2), StringData.fromString("MAIL"));
        assertThat(InternalRows.values(lineitem, row)).containsExactly(fromJava);
        assertThat(lineitem.inserts(InternalRows.values(lineitem, row))).isEqualTo(lineitem.inserts(fromJava));
        assertThat(InternalRows.text(lineitem, row)).isEqualTo("+I[7, 3, 12.50, MAIL]");
        TableInput orders = t.table("orders");
        GenericRowData order =
                GenericRowData.of(7L, (int) LocalDate.of(1995, 3, 15).toEpochDay());
        assertThat(InternalRows.values(orders, order)[2]).isEqualTo(LocalDate.of(1995, 3, 15));
        order.setField(1, null);
        assertThat(InternalRows.values(orders, order)[2]).isNull();
        assertThatThrownBy(() -> InternalRows.values(orders, GenericRowData.of(7L)))
                .isInstanceOf(RejectedRowException.class)
                .hasMessage("expected 2 values ([o_orderkey, o_orderdate]), got 1");
    }
}
