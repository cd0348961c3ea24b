package io.flinkivm.examples.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.examples.tables.GeneratedTable;
import io.trino.tpch.GenerateUtils;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TpchTablesTest {

    @ParameterizedTest
    @ValueSource(doubles = {0.0005, 0.004})
    void everyKeyHoldsAndEveryLineitemFindsItsPartSupplier(double sf) {
        List<GeneratedTable> tables = TpchTables.generate(sf, TpchTables.NAMES);
        for (GeneratedTable t : tables) {
            Set<List<Object>> keys = new HashSet<>();
            for (Row r : t.rows()) {
                assertThat(r.getArity()).as(t.name()).isEqualTo(t.columnNames().size());
                assertThat(keys.add(key(t, r))).as(t.name() + " key of " + r).isTrue();
            }
        }
        GeneratedTable partsupp = tables.get(TpchTables.NAMES.indexOf(TpchTables.PARTSUPP));
        Set<List<Object>> pairs = new HashSet<>();
        partsupp.rows().forEach(r -> pairs.add(List.of(r.getField(0), r.getField(1))));
        for (Row l : tables.get(TpchTables.NAMES.indexOf(TpchTables.LINEITEM)).rows()) {
            assertThat(pairs).contains(List.of(l.getField(1), l.getField(2)));
        }
    }

    @Test
    void sizesFollowTheScaleFactor() {
        List<String> tables = List.of(
                TpchTables.PART, TpchTables.SUPPLIER, TpchTables.PARTSUPP, TpchTables.CUSTOMER, TpchTables.NATION);
        // At 0.1 the generator names 1,000 suppliers: no partsupp key repeats, none is dropped.
        assertThat(TpchTables.generate(0.1, tables))
                .extracting(x -> x.rows().size())
                .containsExactly(20_000, 1_000, 80_000, 15_000, 25);
        assertThat(TpchTables.generate(0.01, List.of(TpchTables.REGION, TpchTables.ORDERS, TpchTables.LINEITEM)))
                .extracting(x -> x.name() + " " + x.rows().size())
                .containsExactly("region 5", "orders 15000", "lineitem 60175");
    }

    @Test
    void valuesAreExact() {
        LineItem first = new LineItemGenerator(0.001, 1, 1).iterator().next();
        Row row = TpchTables.row(first);
        assertThat(row.getField(5)).isEqualTo(BigDecimal.valueOf(first.getExtendedPriceInCents(), 2));
        assertThat(row.getField(6)).isEqualTo(BigDecimal.valueOf(first.getDiscountPercent(), 2));
        assertThat(row.getField(4))
                .isEqualTo(BigDecimal.valueOf(first.getQuantity()).setScale(2));
        assertThat(row.getField(10)).hasToString(GenerateUtils.formatDate(first.getShipDate()));
        assertThat(row.getField(12)).hasToString(GenerateUtils.formatDate(first.getReceiptDate()));
    }

    @Test
    void schemaTextIsWhatTheCommandLineReads() {
        assertThat(TpchTables.empty(TpchTables.NATION).schemaText())
                .isEqualTo("nation(n_nationkey BIGINT NOT NULL, n_name VARCHAR(25), n_regionkey BIGINT,"
                        + " n_comment VARCHAR(152), PRIMARY KEY (n_nationkey) NOT ENFORCED)");
        assertThatThrownBy(() -> TpchTables.empty("nations"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no TPC-H table nations; the tables are part, supplier");
        assertThatThrownBy(() -> TpchTables.generate(0, List.of(TpchTables.NATION)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    static List<Object> key(GeneratedTable t, Row r) {
        List<Object> key = new ArrayList<>();
        for (String k : t.primaryKey()) {
            key.add(r.getField(t.columnNames().indexOf(k)));
        }
        return key;
    }
}
