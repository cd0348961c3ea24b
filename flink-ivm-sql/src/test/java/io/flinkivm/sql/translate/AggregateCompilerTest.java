package io.flinkivm.sql.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.Inputs;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Chain;
import io.flinkivm.core.semiring.Product;
import io.flinkivm.core.semiring.ProductRing;
import io.flinkivm.core.semiring.ProductSemiring;
import io.flinkivm.core.semiring.Semiring;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** MIN and MAX of every ordered type: their components, payloads, results and refusals. */
class AggregateCompilerTest {

    /** The star: shipments with their carrier, product, order and region, and returns by order. */
    static final Map<String, SqlTable> STAR = SqlSchemas.parse(
            "shipment(id BIGINT, carrier_id BIGINT, product_id BIGINT, order_id BIGINT, note STRING, PRIMARY KEY (id));"
                    + " item_return(id BIGINT, order_id BIGINT, reason STRING, PRIMARY KEY (id));"
                    + " orders(id BIGINT, region_id BIGINT, placed_on DATE, PRIMARY KEY (id));"
                    + " product(id BIGINT, name STRING, PRIMARY KEY (id));"
                    + " carrier(id BIGINT, kind STRING, PRIMARY KEY (id));"
                    + " region(id BIGINT, name STRING, PRIMARY KEY (id))");

    static final String FIRST_AND_LAST =
            "SELECT MIN(p.name) AS first_product, MIN(o.placed_on) AS first_day, MAX(s.note) AS last_note\n"
                    + "FROM shipment AS s, orders AS o, product AS p\n"
                    + "WHERE s.note NOT LIKE '%damaged%' AND p.id = s.product_id AND o.id = s.order_id";

    /** One column of every ordered type. */
    static final Map<String, SqlTable> TYPES = SqlSchemas.parse("t(k BIGINT, s VARCHAR(10), d DATE, tm TIME(0),"
            + " ts TIMESTAMP(3), tn TIMESTAMP(9), amount DECIMAL(12, 2), wide DECIMAL(30, 4), b BOOLEAN, f FLOAT,"
            + " db DOUBLE, i INT)");

    private static List<TableInput.Insert> inserts(SqlTranslation t, String table, String... fields)
            throws RejectedRowException {
        TableInput input = t.table(table);
        return input.inserts(input.fromText(Arrays.asList(fields)));
    }

    private static Product payload(SqlTranslation t, String table, String... fields) throws RejectedRowException {
        List<TableInput.Insert> inserts = inserts(t, table, fields);
        assertThat(inserts).hasSize(1);
        return (Product) inserts.get(0).payload();
    }

    @Test
    void minOfStringsAndDatesAndMaxOfStringsAreChainsOfTheirTypes() throws Exception {
        SqlTranslation t = SqlTranslation.of(FIRST_AND_LAST, STAR);
        ProductSemiring k = (ProductSemiring) t.semiring();
        assertThat(k.name()).isEqualTo("product(natural,min over STRING,min over DATE,max over STRING)");
        assertThat(t.columns()).extracting(c -> c.type().toString()).containsExactly("STRING", "DATE", "STRING");
        assertThat(t.explain())
                .contains("→ product (alias p), payload count 1, c1 = name, the one in the others")
                .contains("→ orders (alias o), payload count 1, c2 = placed_on, the one in the others")
                .contains("result:   first_product STRING = c1, NULL if top, first_day DATE = c2, NULL if top,"
                        + " last_note STRING = c3, NULL if bottom");

        Product widget = payload(t, "product", "1", "widget");
        Product gadget = payload(t, "product", "2", "gadget");
        Product nameless = payload(t, "product", "3", "\\N");
        Product may = payload(t, "orders", "7", "1", "2024-05-01");
        Product april = payload(t, "orders", "8", "1", "2024-04-30");
        Product shipped = payload(t, "shipment", "1", "1", "1", "7", "on time");
        Product late = payload(t, "shipment", "2", "1", "2", "8", "late");
        assertThat(inserts(t, "shipment", "3", "1", "2", "8", "damaged box")).isEmpty();
        assertThat(k.format(widget)).isEqualTo("1;'widget';bottom;top");
        assertThat(k.format(nameless)).isEqualTo("1;top;bottom;top");
        assertThat(k.format(may)).isEqualTo("1;bottom;2024-05-01;top");
        assertThat(k.format(late)).isEqualTo("1;bottom;bottom;'late'");

        Product joined = k.plus(k.times(k.times(widget, may), shipped), k.times(k.times(gadget, april), late));
        assertThat(t.outputRow(Tuple.EMPTY, joined)).containsExactly("gadget", LocalDate.of(2024, 4, 30), "on time");
        // A group whose names are all NULL has no MIN: NULL, as SQL's MIN skips NULLs.
        Product noName = k.times(k.times(nameless, may), shipped);
        assertThat(t.outputRow(Tuple.EMPTY, noName)).containsExactly(null, LocalDate.of(2024, 5, 1), "on time");
        assertThat(t.outputRow(Tuple.EMPTY, k.plus(noName, joined)))
                .containsExactly("gadget", LocalDate.of(2024, 4, 30), "on time");
    }

    @Test
    void everyOrderedTypeKeepsItsTypeAndOrder() throws Exception {
        SqlTranslation t = SqlTranslation.of(
                "SELECT k, MIN(s), MAX(d), MIN(tm), MAX(ts), MIN(tn), MAX(amount), MIN(wide), MAX(b), MIN(f), MAX(db),"
                        + " MIN(i), MAX(s) FROM t GROUP BY k",
                TYPES);
        assertThat(t.semiring().name())
                .isEqualTo("product(natural,min over VARCHAR(10),max over DATE,min over TIME(0),max over TIMESTAMP(3),"
                        + "min over TIMESTAMP(9),max over DECIMAL(12, 2),min over DECIMAL(30, 4),max over BOOLEAN,"
                        + "min over FLOAT,max over DOUBLE,min over INT,max over VARCHAR(10))");
        assertThat(t.columns())
                .extracting(c -> c.type().toString())
                .containsExactly(
                        "BIGINT",
                        "VARCHAR(10)",
                        "DATE",
                        "TIME(0)",
                        "TIMESTAMP(3)",
                        "TIMESTAMP(9)",
                        "DECIMAL(12, 2)",
                        "DECIMAL(30, 4)",
                        "BOOLEAN",
                        "FLOAT",
                        "DOUBLE",
                        "INT",
                        "VARCHAR(10)");
        Semiring<Product> k = castProduct(t.semiring());
        String beyond = new String(Character.toChars(0x2070E));
        Product a = payload(
                t,
                "t",
                "1",
                "\uFF21",
                "2024-05-01",
                "10:15:00",
                "2024-05-01 10:15:00.125",
                "1969-12-31 23:59:59.999999999",
                "-10.50",
                "123456789012345678901234.5678",
                "false",
                "2.5",
                "-1e300",
                "-7");
        Product b = payload(
                t,
                "t",
                "1",
                beyond,
                "1969-12-31",
                "09:00:00",
                "2024-05-01 10:15:00.124",
                "1970-01-01 00:00:00.000000001",
                "99.99",
                "-123456789012345678901234.5678",
                "true",
                "-0.5",
                "1e-300",
                "3");
        Product none =
                payload(t, "t", "1", "\\N", "\\N", "\\N", "\\N", "\\N", "\\N", "\\N", "\\N", "\\N", "\\N", "\\N");
        Object[] row = t.outputRow(Tuple.of(1L), k.plus(k.plus(a, none), b));
        assertThat(row)
                .containsExactly(
                        1L,
                        "\uFF21", // below U+2070E by code point (Java's String order has it above)
                        LocalDate.of(2024, 5, 1),
                        LocalTime.of(9, 0),
                        LocalDateTime.of(2024, 5, 1, 10, 15, 0, 125_000_000),
                        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
                        new BigDecimal("99.99"),
                        new BigDecimal("-123456789012345678901234.5678"),
                        true,
                        -0.5f,
                        1e-300,
                        -7,
                        beyond);
        assertThat(t.outputRow(Tuple.of(1L), none)).containsOnly(1L, null);
    }

    @SuppressWarnings("unchecked")
    private static Semiring<Product> castProduct(Semiring<?> s) {
        return (Semiring<Product>) s;
    }

    @Test
    void underDeletesTheMinOfStringsFallsBackToTheNext() throws Exception {
        SqlTranslation t = SqlTranslation.of(FIRST_AND_LAST, STAR);
        Inputs inputs = Inputs.changelog("product");
        ProductRing ring = (ProductRing) t.semiringFor(inputs);
        assertThat(t.explain(inputs))
                .contains("planned:  product(integer,min-multiset over STRING,min-multiset over DATE,"
                        + "max-multiset over STRING) (tables with deletes: the ring of product(natural,min over STRING,"
                        + "min over DATE,max over STRING))");
        Product widget = SqlTranslation.payloadIn(ring, payload(t, "product", "1", "widget"));
        Product gadget = SqlTranslation.payloadIn(ring, payload(t, "product", "2", "gadget"));
        Product may = SqlTranslation.payloadIn(ring, payload(t, "orders", "7", "1", "2024-05-01"));
        Product shipped = SqlTranslation.payloadIn(ring, payload(t, "shipment", "1", "1", "1", "7", "on time"));
        Product both = ring.times(ring.times(ring.plus(widget, gadget), may), shipped);
        assertThat(t.outputRow(Tuple.EMPTY, both)).containsExactly("gadget", LocalDate.of(2024, 5, 1), "on time");
        Product left = ring.minus(both, ring.times(ring.times(gadget, may), shipped));
        assertThat(t.outputRow(Tuple.EMPTY, left)).containsExactly("widget", LocalDate.of(2024, 5, 1), "on time");
    }

    @Test
    void valuesMinAndMaxCannotKeepAreDeadLetters() {
        SqlTranslation t = SqlTranslation.of("SELECT k, MIN(k), MAX(db) FROM t GROUP BY k", TYPES);
        assertThatThrownBy(() ->
                        inserts(t, "t", String.valueOf(Long.MAX_VALUE), "", "", "", "", "", "", "", "", "", "1", ""))
                .isInstanceOf(RejectedRowException.class)
                .hasMessageContaining("k = 9223372036854775807 is out of range: MIN and MAX keep it for no value");
        assertThatThrownBy(() -> inserts(t, "t", "1", "", "", "", "", "", "", "", "", "", "Infinity", ""))
                .isInstanceOf(RejectedRowException.class)
                .hasMessageContaining("db = Infinity is not a finite number");
    }

    @Test
    void typesWithoutAnOrderAndSeveralTablesOfNonNumbersAreRefused() {
        Map<String, SqlTable> odd = Map.of(
                "u",
                new SqlTable(
                        "u",
                        List.of(
                                new SqlTable.Column("k", SqlType.BIGINT, true),
                                new SqlTable.Column("tags", SqlType.unsupported("ARRAY<INT>"), true)),
                        List.of()));
        assertThatThrownBy(() -> SqlTranslation.of("SELECT MIN(tags) FROM u", odd))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("MIN over ARRAY<INT> at line 1, column 12 is not supported")
                .hasMessageContaining("MIN is maintained over TINYINT, SMALLINT, INT, BIGINT, DECIMAL, FLOAT, DOUBLE,");
        assertThatThrownBy(() -> SqlTranslation.of("SELECT MAX(a.d - b.k) FROM t AS a, t AS b WHERE a.k = b.k", TYPES))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("a.d is a DATE, not a number");
    }

    @Test
    void timeColumnsCompareGroupAndReadAsTimes() throws Exception {
        SqlTranslation t = SqlTranslation.of(
                "SELECT tm, COUNT(*) FROM t WHERE tm < TIME '12:00:00' AND tm >= '08:30' GROUP BY tm", TYPES);
        assertThat(t.columns().get(0).type()).hasToString("TIME(0)");
        assertThat(inserts(t, "t", "1", "", "", "12:00:00", "", "", "", "", "", "", "", ""))
                .isEmpty();
        assertThat(inserts(t, "t", "1", "", "", "08:29:59", "", "", "", "", "", "", "", ""))
                .isEmpty();
        List<TableInput.Insert> nine = inserts(t, "t", "1", "", "", "09:00", "", "", "", "", "", "", "", "");
        // A TIME is held as its milliseconds of the day.
        assertThat(nine).containsExactly(new TableInput.Insert("t", Tuple.of(32_400_000L), 1L));
        assertThat(t.outputRow(Tuple.of(32_400_000L), 2L)).containsExactly(LocalTime.of(9, 0), 2L);
        assertThat(t.outputTexts(Tuple.of(32_400_000L), 2L)).containsExactly("09:00:00", "2");
        assertThat(Chain.of(Chain.Kind.TIME, "TIME(0)")
                        .format(LocalTime.of(9, 0).toNanoOfDay(), null))
                .isEqualTo("09:00");
    }
}
