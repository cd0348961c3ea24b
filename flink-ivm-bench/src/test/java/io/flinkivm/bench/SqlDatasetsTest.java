package io.flinkivm.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.PlanKind;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.sql.translate.SqlTranslation;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SqlDatasetsTest {

    @Test
    void everyDatasetRunsOnTheConstantTimePlanWhereItsKeysHold() {
        assertThat(SqlDatasets.names())
                .containsExactly(
                        "tpch-q3",
                        "tpch-q10",
                        "star-revenue",
                        "snowflake",
                        "nexmark-q3",
                        "nexmark-q20",
                        "bids-per-window");
        for (SqlDataset d : SqlDatasets.all()) {
            SqlTranslation t = d.translation();
            var plan = Planner.plan(t.query(), t.semiring());
            assertThat(plan.kind()).as(d.name()).isEqualTo(PlanKind.P_HIERARCHICAL);
            assertThat(SqlRuns.guarantee(plan.explain()))
                    .as(d.name())
                    .startsWith("Plan: p-hierarchical")
                    .contains("Guarantee: amortized O(1) per insert");
            assertThat(SqlSystem.rates(d).keySet()).as(d.name()).containsExactlyInAnyOrderElementsOf(d.tables());
        }
    }

    @Test
    void aStreamHasExactlyNRowsOfItsTablesShuffledAndRepeats() {
        for (SqlDataset d : SqlDatasets.all()) {
            SqlStream a = d.generate(3_000, 9);
            SqlStream b = d.generate(3_000, 9);
            assertThat(a.size()).as(d.name()).isEqualTo(3_000);
            assertThat(a.rows()).isEqualTo(b.rows());
            assertThat(a.tableOf()).isEqualTo(b.tableOf());
            assertThat(a.tables()).extracting(t -> t.name()).containsExactlyElementsOf(d.tables());
            assertThat(a.tables()).allSatisfy(t -> assertThat(t.rows()).isEmpty());
            Set<Integer> seen = new HashSet<>(a.tableOf());
            for (int t = 0; t < d.tables().size(); t++) {
                int table = t;
                assertThat(a.rowsOf(t)).as(d.name() + " " + d.tables().get(t)).isPositive();
                // Each row has its table's arity.
                for (int i = 0; i < a.size(); i++) {
                    if (a.tableOf().get(i) == table) {
                        assertThat(a.rows().get(i).getArity())
                                .isEqualTo(a.tables().get(table).columnNames().size());
                    }
                }
            }
            assertThat(seen).hasSize(d.tables().size());
            if (d.eventTime() == null) {
                // Interleaved: the first tenth of the stream has rows of more than one table.
                assertThat(new HashSet<>(a.tableOf().subList(0, 300)))
                        .as(d.name())
                        .hasSizeGreaterThan(1);
            } else {
                // In event order, the tables keeping their watermark.
                int column = a.tables().get(0).columnNames().indexOf(d.eventTime());
                for (int i = 1; i < a.size(); i++) {
                    LocalDateTime before = (LocalDateTime) a.rows().get(i - 1).getField(column);
                    assertThat((LocalDateTime) a.rows().get(i).getField(column))
                            .as(d.name())
                            .isAfterOrEqualTo(before);
                }
                assertThat(a.tables())
                        .allSatisfy(t -> assertThat(t.schemaText())
                                .contains("WATERMARK FOR `" + d.eventTime() + "` AS `" + d.eventTime() + "` - "
                                        + SqlDataset.WATERMARK_DELAY));
            }
        }
    }

    @Test
    void nMapsToAScaleFactorOrToNexmarkEvents() {
        SqlDataset q3 = SqlDatasets.all().get(0);
        // customer + orders + lineitem: 7,651,215 rows per unit of scale factor.
        assertThat(q3.scaleFactor(1_000_000))
                .isCloseTo(1_030_000 / 7_651_215.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(q3.describe(1_000_000)).contains("scale factor 0.13462");
        SqlDataset q20 = dataset("nexmark-q20");
        assertThat(q20.proportions()).isEqualTo(Map.of("auction", 3.0, "bid", 46.0));
        assertThat(q20.describe(49_000)).contains("the first 51,500 events");
        SqlDataset snowflake = dataset("snowflake");
        assertThat(List.of(q3.source(), q20.source(), snowflake.source()))
                .containsExactly("tpch", "nexmark", "snowflake");
        assertThat(snowflake.proportions().values().stream()
                        .mapToDouble(Double::doubleValue)
                        .sum())
                .isEqualTo(1000.0);
        assertThat(snowflake.describe(1_000_000)).contains("1,030,000 rows of the seeded snowflake generator");
    }

    /**
     * The snowflake absorbs its four dimensions and the city into the sales: one atom is left, and its
     * plan relies on every dimension's key.
     */
    @Test
    void theSnowflakeFoldsEveryDimensionIntoTheSales() {
        SqlTranslation t = dataset("snowflake").translation();
        String explain = Planner.plan(t.query(), t.semiring()).explain();
        assertThat(explain)
                .contains(
                        "city(city_id) folded into store by city_id",
                        "folded into sales by store_id",
                        "folded into sales by product_id",
                        "folded into sales by customer_id",
                        "folded into sales by day_id",
                        "Closure under the keys (the absorbed query): Q(segment) :- sales(",
                        "min over VARCHAR(32)");
    }

    private static SqlDataset dataset(String name) {
        return SqlDatasets.all().stream()
                .filter(d -> d.name().equals(name))
                .findFirst()
                .orElseThrow();
    }
}
