package io.flinkivm.sql.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Product;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.junit.jupiter.api.Test;

class RowConverterTest {
    private static final Map<String, SqlTable> TABLES =
            SqlSchemas.parse("t(k BIGINT NOT NULL, i INT, s SMALLINT, b TINYINT, d DECIMAL(15, 2), w DECIMAL(30, 4),"
                    + " f FLOAT, x DOUBLE, v STRING, z BOOLEAN, dt DATE, tm TIME(3), ts TIMESTAMP(3),"
                    + " tn TIMESTAMP(9), PRIMARY KEY (k));"
                    + " u(k BIGINT NOT NULL, d4 DECIMAL(10, 4), ts6 TIMESTAMP(6), ts3 TIMESTAMP(3), v STRING)");

    /** A change made of a row: the relation, the tuple, the payload. */
    private record Made(int relation, Tuple tuple, Object payload) {}

    private static List<Made> convert(TableInput table, RowData row) throws RejectedRowException {
        List<Made> out = new ArrayList<>();
        int n = RowConverter.of(table).convert(row, (r, tuple, payload) -> out.add(new Made(r, tuple, payload)));
        assertThat(n).isEqualTo(out.size());
        return out;
    }

    /** The same row's inserts made by the expressions on its Java values. */
    private static List<Made> slowly(TableInput table, Object[] javaRow) throws RejectedRowException {
        List<Made> out = new ArrayList<>();
        for (TableInput.Insert i : table.inserts(table.fromValues(javaRow))) {
            out.add(new Made(table.relations().indexOf(i.relation()), i.tuple(), i.payload()));
        }
        return out;
    }

    /** Flink's internal row of Java values of the table's input columns. */
    private static GenericRowData internal(TableInput table, Object[] javaRow) {
        GenericRowData row = new GenericRowData(javaRow.length);
        for (int i = 0; i < javaRow.length; i++) {
            row.setField(i, internal(javaRow[i], table.inputType(i)));
        }
        return row;
    }

    private static Object internal(Object v, SqlType type) {
        if (v == null) {
            return null;
        }
        return switch (type.kind()) {
            case TINYINT -> ((Number) v).byteValue();
            case SMALLINT -> ((Number) v).shortValue();
            case INT -> ((Number) v).intValue();
            case BIGINT -> ((Number) v).longValue();
            case DECIMAL -> DecimalData.fromBigDecimal((BigDecimal) v, type.precision(), type.scale());
            case FLOAT -> ((Number) v).floatValue();
            case DOUBLE -> ((Number) v).doubleValue();
            case STRING -> StringData.fromString((String) v);
            case DATE -> (int) ((LocalDate) v).toEpochDay();
            case TIME -> (int) (((LocalTime) v).toNanoOfDay() / 1_000_000L);
            case TIMESTAMP -> TimestampData.fromLocalDateTime((LocalDateTime) v);
            default -> v;
        };
    }

    @Test
    void aRowThatItsFilterDropsIsMarkedAsTheExpressionsMarkIt() throws Exception {
        TableInput table = SqlTranslation.of(
                        "SELECT k, SUM(d) FROM t WHERE dt < DATE '1995-03-15' AND v <> 'x' GROUP BY k", TABLES)
                .table("t");
        Object[] dropped = new Object[table.inputCount()];
        Object[] kept = new Object[table.inputCount()];
        for (int i = 0; i < table.inputCount(); i++) {
            String column = table.inputColumns().get(i);
            dropped[i] = switch (column) {
                case "k" -> 7L;
                case "d" -> new BigDecimal("1.25");
                case "dt" -> LocalDate.of(1996, 1, 1);
                case "v" -> "y";
                default -> null;
            };
            kept[i] = column.equals("dt") ? LocalDate.of(1990, 1, 1) : dropped[i];
        }
        RowConverter converter = RowConverter.of(table);
        assertThat(converter.convert(internal(table, dropped), (r, tuple, payload) -> {}))
                .isZero();
        List<TableInput.Insert> marks = table.marks(table.fromValues(dropped), java.util.Set.copyOf(table.relations()));
        assertThat(marks).hasSize(1);
        assertThat(converter.mark(0)).isEqualTo(marks.get(0).tuple()).isNotNull();

        dropped[table.inputColumns().indexOf("k")] = null;
        assertThat(converter.convert(internal(table, dropped), (r, tuple, payload) -> {}))
                .isZero();
        assertThat(converter.mark(0)).as("no row can look up a NULL key").isNull();
        assertThat(converter.convert(internal(table, kept), (r, tuple, payload) -> {}))
                .isOne();
    }

    @Test
    void everyTypeIsReadAsItsTupleValueAndReadBackAsTheColumnsValue() throws Exception {
        SqlTranslation t =
                SqlTranslation.of("SELECT DISTINCT k, i, s, b, d, w, f, x, v, z, dt, tm, ts, tn FROM t", TABLES);
        TableInput table = t.table("t");
        Object[] javaRow = {
            7L,
            -3,
            (short) 300,
            (byte) -8,
            new BigDecimal("12.50"),
            new BigDecimal("123456789012345678901234.5000"),
            1.5f,
            -0.0,
            "Ünïcode",
            true,
            LocalDate.of(1995, 3, 15),
            LocalTime.of(10, 15, 30, 123_000_000),
            LocalDateTime.of(2024, 5, 1, 10, 15, 30, 123_000_000),
            LocalDateTime.of(2024, 5, 1, 10, 15, 30, 123_456_789)
        };
        List<Made> made = convert(table, internal(table, javaRow));
        Tuple tuple = made.get(0).tuple();
        assertThat(tuple.toArray())
                .containsExactly(
                        7L,
                        -3L,
                        300L,
                        -8L,
                        1250L, // units of 10^-2
                        "123456789012345678901234.5", // wider than 18 digits: exact text
                        1.5,
                        0.0, // -0.0 joins with 0.0
                        "Ünïcode",
                        true,
                        LocalDate.of(1995, 3, 15).toEpochDay(),
                        36_930_123L, // milliseconds of the day
                        1_714_558_530_123_000L, // microseconds
                        1_714_558_530_123_456_789L); // nanoseconds
        assertThat(made).isEqualTo(slowly(table, javaRow));
        Object[] back = t.outputRow(tuple, true);
        assertThat(back)
                .containsExactly(
                        7L,
                        -3,
                        (short) 300,
                        (byte) -8,
                        new BigDecimal("12.50"),
                        new BigDecimal("123456789012345678901234.5000"),
                        1.5f,
                        0.0,
                        "Ünïcode",
                        true,
                        LocalDate.of(1995, 3, 15),
                        LocalTime.of(10, 15, 30, 123_000_000),
                        LocalDateTime.of(2024, 5, 1, 10, 15, 30, 123_000_000),
                        LocalDateTime.of(2024, 5, 1, 10, 15, 30, 123_456_789));
    }

    @Test
    void aNullIsTheNullValueInAGroupNoInsertInAJoinAndAnErrorInAKey() throws Exception {
        SqlTranslation t = SqlTranslation.of(
                "SELECT t.dt, t.i, COUNT(*) AS n FROM t JOIN u ON t.v = u.v GROUP BY t.dt, t.i", TABLES);
        TableInput table = t.table("t");
        assertThat(table.inputColumns()).containsExactly("i", "v", "dt");
        List<Made> made = convert(table, GenericRowData.of(null, StringData.fromString("a"), null));
        assertThat(made.get(0).tuple()).isEqualTo(Tuple.of(SqlType.NULL_TUPLE_VALUE, "a", SqlType.NULL_TUPLE_VALUE));
        assertThat(t.query().head()).containsExactly("dt", "i");
        Tuple result = Tuple.of(SqlType.NULL_TUPLE_VALUE, SqlType.NULL_TUPLE_VALUE);
        assertThat(t.outputRow(result, 1L)).containsExactly(null, null, 1L);
        assertThat(convert(table, GenericRowData.of(4, null, 9000))).isEmpty();
        SqlTranslation keyed = SqlTranslation.of("SELECT k, COUNT(*) AS n FROM t GROUP BY k", TABLES);
        assertThatThrownBy(() -> convert(keyed.table("t"), GenericRowData.of((Object) null)))
                .isInstanceOf(RejectedRowException.class)
                .hasMessage("NULL in k, a column of the primary key of t");
        assertThatThrownBy(() -> convert(keyed.table("t"), GenericRowData.of(1L, 2L)))
                .isInstanceOf(RejectedRowException.class)
                .hasMessage("expected 1 values ([k]), got 2");
    }

    @Test
    void decimalsOfOneVariableShareTheLargestScaleAndTimestampsTheFinestUnit() throws Exception {
        SqlTranslation t = SqlTranslation.of(
                "SELECT t.d, t.ts, COUNT(*) AS n FROM t JOIN u ON t.d = u.d4 AND t.ts = u.ts6 GROUP BY t.d, t.ts",
                TABLES);
        // DECIMAL(15, 2) and DECIMAL(10, 4): 13 digits before the point and 4 after fit 18 digits.
        GenericRowData fromT = GenericRowData.of(
                DecimalData.fromBigDecimal(new BigDecimal("1.50"), 15, 2),
                TimestampData.fromLocalDateTime(LocalDateTime.of(2024, 1, 1, 0, 0, 0, 5_000_000)));
        GenericRowData fromU = GenericRowData.of(
                DecimalData.fromBigDecimal(new BigDecimal("1.5000"), 10, 4),
                TimestampData.fromLocalDateTime(LocalDateTime.of(2024, 1, 1, 0, 0, 0, 5_000_000)));
        Tuple a = convert(t.table("t"), fromT).get(0).tuple();
        Tuple b = convert(t.table("u"), fromU).get(0).tuple();
        assertThat(a).isEqualTo(b).isEqualTo(Tuple.of(15000L, 1_704_067_200_005_000L));
        assertThat(t.outputRow(a, 1L))
                .containsExactly(new BigDecimal("1.50"), LocalDateTime.of(2024, 1, 1, 0, 0, 0, 5_000_000), 1L);
        // DECIMAL(30, 4) with DECIMAL(10, 4): too wide for a long, one text per value.
        SqlTranslation wide =
                SqlTranslation.of("SELECT t.w, COUNT(*) AS n FROM t JOIN u ON t.w = u.d4 GROUP BY t.w", TABLES);
        assertThat(convert(
                                wide.table("u"),
                                GenericRowData.of(DecimalData.fromBigDecimal(new BigDecimal("2.2500"), 10, 4)))
                        .get(0)
                        .tuple())
                .isEqualTo(Tuple.of("2.25"));
    }

    @Test
    void timestampsBeyondWhatTheirUnitHoldsAreRejectedWithTheReason() {
        SqlTranslation t = SqlTranslation.of("SELECT DISTINCT tn FROM t", TABLES);
        assertThatThrownBy(() -> convert(
                        t.table("t"),
                        GenericRowData.of(TimestampData.fromLocalDateTime(LocalDateTime.of(2300, 1, 1, 0, 0)))))
                .isInstanceOf(RejectedRowException.class)
                .hasMessageContaining("tn: 2300-01-01T00:00")
                .hasMessageContaining("outside the TIMESTAMP(9) range flink-ivm holds (the years 1677 to 2262)");
        assertThat(TupleCodec.of(SqlType.timestamp(3))).isEqualTo(new TupleCodec(TupleCodec.Form.TIMESTAMP, 6));
        assertThat(TupleCodec.of(List.of(SqlType.timestamp(3), SqlType.timestamp(9))))
                .isEqualTo(new TupleCodec(TupleCodec.Form.TIMESTAMP, 9));
    }

    @Test
    void payloadsAreExactInLongsAndAnOverflowIsRejectedWithItsReason() throws Exception {
        SqlTranslation t = SqlTranslation.of(
                "SELECT k, SUM(d * (1 - d)) AS r, SUM(w) AS ws, MIN(i) AS lo FROM t GROUP BY k", TABLES);
        TableInput table = t.table("t");
        assertThat(table.inputColumns()).containsExactly("k", "i", "d", "w");
        // A DECIMAL(30, 4) is read as a BigDecimal, as the expressions read it.
        assertThat(RowConverter.of(table).slowParts()).containsExactly("w in units of 10^-4");
        Object[] javaRow = {7L, 5, new BigDecimal("100.50"), new BigDecimal("1.2500")};
        List<Made> made = convert(table, internal(table, javaRow));
        // The count, d * (1 - d) = 100.50 * -99.50 = -9999.7500 in units of 10^-4 and its rows, w and its
        // rows, the minimum of i.
        assertThat(made.get(0).payload()).isEqualTo(Product.of(1, -99_997_500L, 1, 12_500L, 1, 5));
        assertThat(made).isEqualTo(slowly(table, javaRow));
        Object[] big = {7L, 5, new BigDecimal("9999999999999.99"), new BigDecimal("1.0000")};
        assertThatThrownBy(() -> convert(table, internal(table, big)))
                .isInstanceOf(RejectedRowException.class)
                .hasMessageContaining("exceeds 64 bits");
        assertThatThrownBy(() -> slowly(table, big))
                .isInstanceOf(RejectedRowException.class)
                .hasMessageContaining("exceeds 64 bits");
    }

    @Test
    void filtersOfATableThatFeedsTwoRelationsAreCompiledAndAgreeWithTheExpressions() throws Exception {
        SqlTranslation t = SqlTranslation.of(
                "SELECT a.k, b.i, SUM(a.d) AS sd, MIN(b.dt) AS md, MAX(a.i) AS mi, MAX(a.ts) AS mt, MIN(b.d) AS mn"
                        + " FROM t AS a JOIN t AS b ON a.k = b.i"
                        + " WHERE a.v IN ('x', 'y') AND a.dt < DATE '1995-03-15' AND a.d > 1.5"
                        + " AND (b.v >= 'm' OR b.v IS NULL) AND b.s NOT IN (1, 2) AND b.ts > TIMESTAMP '2024-01-01 00:00:00'"
                        + " AND NOT b.z AND b.tm <= TIME '12:00:00'"
                        + " GROUP BY a.k, b.i",
                TABLES);
        TableInput table = t.table("t");
        assertThat(table.relations()).hasSize(2);
        assertThat(RowConverter.of(table).slowParts()).isEmpty();
        Random random = new Random(42);
        int made = 0;
        for (int n = 0; n < 2000; n++) {
            Object[] javaRow = randomRow(table, random);
            List<Made> expected;
            try {
                expected = slowly(table, javaRow);
            } catch (RejectedRowException e) {
                assertThatThrownBy(() -> convert(table, internal(table, javaRow)))
                        .isInstanceOf(RejectedRowException.class)
                        .hasMessage(e.getMessage());
                continue;
            }
            assertThat(convert(table, internal(table, javaRow)))
                    .as("row %s", java.util.Arrays.toString(javaRow))
                    .isEqualTo(expected);
            made += expected.size();
        }
        assertThat(made).isGreaterThan(100);
    }

    @Test
    void aComparisonBeyondALongIsEvaluatedOnTheRowsValues() throws Exception {
        SqlTranslation t = SqlTranslation.of(
                "SELECT a.k, COUNT(*) AS n FROM t AS a JOIN t AS b ON a.k = b.i WHERE a.d > 0.005 AND b.i > 0"
                        + " GROUP BY a.k",
                TABLES);
        TableInput table = t.table("t");
        // 9999999999999.99 aligned to 10^-3 needs 17 digits: fits; the literal 0.005 is DECIMAL(3, 3).
        Object[] javaRow = {8L, 3, new BigDecimal("9999999999999.99")};
        assertThat(convert(table, internal(table, javaRow))).isEqualTo(slowly(table, javaRow));
    }

    @Test
    void theRevenueQueryIsCompiledWholeAndWhatIsNotIsNamed() {
        SqlTranslation q3 = SqlTranslation.of(SqlTranslationTest.REVENUE, SqlTranslationTest.TPCH);
        for (TableInput table : q3.tables()) {
            assertThat(RowConverter.of(table).slowParts()).as(table.name()).isEmpty();
        }
        SqlTranslation slow = SqlTranslation.of(
                "SELECT UPPER(v) AS u, MIN(x) AS mx FROM t WHERE v LIKE 'a%' GROUP BY UPPER(v)", TABLES);
        assertThat(RowConverter.of(slow.table("t")).slowParts()).containsExactly("v LIKE 'a%'", "UPPER(v)", "x");
    }

    private static Object[] randomRow(TableInput table, Random random) {
        Object[] row = new Object[table.inputCount()];
        for (int i = 0; i < row.length; i++) {
            SqlType type = table.inputType(i);
            if (random.nextInt(8) == 0 && !table.inputColumns().get(i).equals("k")) {
                continue;
            }
            row[i] = switch (type.kind()) {
                case TINYINT -> (byte) random.nextInt(5);
                case SMALLINT -> (short) random.nextInt(5);
                case INT -> random.nextInt(6) - 1;
                case BIGINT -> (long) random.nextInt(6) - 1;
                case DECIMAL -> BigDecimal.valueOf(random.nextInt(400) - 100, type.scale());
                case FLOAT -> random.nextFloat();
                case DOUBLE -> random.nextDouble();
                case STRING -> List.of("a", "m", "x", "y", "zz").get(random.nextInt(5));
                case BOOLEAN -> random.nextBoolean();
                case DATE -> LocalDate.of(1995, 3, 10).plusDays(random.nextInt(10));
                case TIME -> LocalTime.of(11 + random.nextInt(3), 0, 0);
                case TIMESTAMP -> LocalDateTime.of(2023, 12, 31, 23, 59).plusSeconds(random.nextInt(120));
                default -> null;
            };
        }
        return row;
    }
}
