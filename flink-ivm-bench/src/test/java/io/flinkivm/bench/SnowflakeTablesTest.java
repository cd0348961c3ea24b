package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.examples.tables.GeneratedTable;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;

class SnowflakeTablesTest {

    @Test
    void keysHoldAndEveryReferenceNamesARow() {
        List<GeneratedTable> tables = SnowflakeTables.generate(20_000, 5, SnowflakeTables.NAMES);
        Map<String, Set<Object>> ids = new HashMap<>();
        for (GeneratedTable t : tables) {
            Set<Object> keys = new HashSet<>();
            for (Row r : t.rows()) {
                assertThat(keys.add(r.getField(0))).as(t.name() + " " + r).isTrue();
                assertThat(r.getArity()).isEqualTo(t.columnNames().size());
            }
            ids.put(t.name(), keys);
        }
        assertThat(ids.get("sales")).hasSize(18_000);
        assertThat(ids.get("customer")).hasSize(1_200);
        assertThat(ids.get("city")).hasSize(20);
        for (GeneratedTable t : tables) {
            for (int c = 1; c < t.columnNames().size(); c++) {
                String column = t.columnNames().get(c);
                if (column.endsWith("_id")) {
                    String target = column.equals("day_id") ? "calendar" : column.substring(0, column.length() - 3);
                    for (Row r : t.rows()) {
                        assertThat(ids.get(target)).as(t.name() + "." + column).contains(r.getField(c));
                    }
                }
            }
        }
    }

    @Test
    void theSameArgumentsGiveTheSameRowsWhateverTablesAreAskedFor() {
        List<GeneratedTable> all = SnowflakeTables.generate(5_000, 9, SnowflakeTables.NAMES);
        List<GeneratedTable> some = SnowflakeTables.generate(5_000, 9, List.of("store", "city"));
        assertThat(some.get(0).rows()).isEqualTo(all.get(2).rows());
        assertThat(some.get(1).rows()).isEqualTo(all.get(3).rows());
        assertThat(SnowflakeTables.generate(5_000, 10, List.of("store")).get(0).rows())
                .isNotEqualTo(all.get(2).rows());
        // A small generation still has every country's cities to filter.
        assertThat(SnowflakeTables.sizes(100)).containsEntry("city", 6L).containsEntry("sales", 90L);
    }

    @Test
    void unknownTablesAndEmptyGenerationsAreRefused() {
        assertThatThrownBy(() -> SnowflakeTables.empty("orders"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no snowflake table orders");
        assertThatThrownBy(() -> SnowflakeTables.generate(0, 1, SnowflakeTables.NAMES))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rows must be >= 1");
    }
}
