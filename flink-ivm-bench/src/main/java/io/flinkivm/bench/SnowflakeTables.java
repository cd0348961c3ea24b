package io.flinkivm.bench;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.DATE;
import static org.apache.flink.table.api.DataTypes.DECIMAL;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.INT;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.VARCHAR;

import io.flinkivm.examples.tables.GeneratedTable;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.types.Row;

/**
 * The snowflake dataset's tables: a fact table {@code sales} that references four dimension tables by
 * their primary key {@code id}, {@code product}, {@code store}, {@code customer} and {@code calendar}, and
 * {@code store}'s own dimension {@code city}. Rows are made per table and id from a random seeded with the
 * seed, the table and the id, so the same arguments give the same rows. Sizes per 1,000 rows: 900 sales, 60
 * customers, 25 products, 10 calendar days (from 2000-01-01 on), 4 stores, 1 city (at least 6 cities). Every
 * reference names a row of the same generation, uniformly; the keys hold. Names are random lower-case
 * letters; a product's category is one of five, a store's kind one of three, a city's country one of six,
 * a customer's segment one of five.
 */
final class SnowflakeTables {
    static final String SALES = "sales";
    static final String PRODUCT = "product";
    static final String STORE = "store";
    static final String CITY = "city";
    static final String CUSTOMER = "customer";
    static final String CALENDAR = "calendar";

    /** The tables, fact first. */
    static final List<String> NAMES = List.of(SALES, PRODUCT, STORE, CITY, CUSTOMER, CALENDAR);

    /** Each table's rows per 1,000 rows of all of them. */
    static final Map<String, Double> ROWS_PER_THOUSAND =
            Map.of(SALES, 900.0, CUSTOMER, 60.0, PRODUCT, 25.0, CALENDAR, 10.0, STORE, 4.0, CITY, 1.0);

    static final LocalDate FIRST_DAY = LocalDate.of(2000, 1, 1);
    static final List<String> CATEGORIES = List.of("books", "food", "garden", "tools", "toys");
    static final List<String> KINDS = List.of("mall", "outlet", "street");
    static final List<String> COUNTRIES = List.of("DE", "ES", "FR", "IT", "NL", "PL");
    static final List<String> SEGMENTS = List.of("AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD", "MACHINERY");
    private static final List<String> WEEKDAYS =
            List.of("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday");
    private static final int MIN_CITIES = 6;

    private SnowflakeTables() {}

    /** Table {@code name} without rows: its name, type and key. */
    static GeneratedTable empty(String name) {
        return switch (name) {
            case SALES ->
                new GeneratedTable(
                        SALES,
                        ROW(
                                FIELD("id", BIGINT().notNull()),
                                FIELD("product_id", BIGINT()),
                                FIELD("store_id", BIGINT()),
                                FIELD("customer_id", BIGINT()),
                                FIELD("day_id", BIGINT()),
                                FIELD("quantity", INT()),
                                FIELD("amount", DECIMAL(12, 2))),
                        List.of("id"),
                        List.of());
            case PRODUCT ->
                new GeneratedTable(
                        PRODUCT,
                        ROW(
                                FIELD("id", BIGINT().notNull()),
                                FIELD("name", VARCHAR(32)),
                                FIELD("category", VARCHAR(16)),
                                FIELD("price", DECIMAL(10, 2))),
                        List.of("id"),
                        List.of());
            case STORE ->
                new GeneratedTable(
                        STORE,
                        ROW(
                                FIELD("id", BIGINT().notNull()),
                                FIELD("name", VARCHAR(32)),
                                FIELD("kind", VARCHAR(8)),
                                FIELD("city_id", BIGINT())),
                        List.of("id"),
                        List.of());
            case CITY ->
                new GeneratedTable(
                        CITY,
                        ROW(FIELD("id", BIGINT().notNull()), FIELD("name", VARCHAR(32)), FIELD("country", VARCHAR(2))),
                        List.of("id"),
                        List.of());
            case CUSTOMER ->
                new GeneratedTable(
                        CUSTOMER,
                        ROW(FIELD("id", BIGINT().notNull()), FIELD("name", VARCHAR(32)), FIELD("segment", VARCHAR(16))),
                        List.of("id"),
                        List.of());
            case CALENDAR ->
                new GeneratedTable(
                        CALENDAR,
                        ROW(
                                FIELD("id", BIGINT().notNull()),
                                FIELD("sold_date", DATE()),
                                FIELD("sold_year", INT()),
                                FIELD("weekday", VARCHAR(9))),
                        List.of("id"),
                        List.of());
            default -> throw new IllegalArgumentException("no snowflake table " + name + "; the tables are " + NAMES);
        };
    }

    /** How many rows of each table a generation of about {@code rows} rows has. */
    static Map<String, Long> sizes(long rows) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String t : NAMES) {
            long n = Math.max(1, Math.round(rows * ROWS_PER_THOUSAND.get(t) / 1000.0));
            out.put(t, t.equals(CITY) ? Math.max(MIN_CITIES, n) : n);
        }
        return out;
    }

    /**
     * The named tables of a generation of about {@code rows} rows of all six (so the sizes and the
     * references do not depend on which tables are asked for), seeded with {@code seed}, ids from 1.
     */
    static List<GeneratedTable> generate(long rows, long seed, List<String> tables) {
        if (rows < 1) {
            throw new IllegalArgumentException("rows must be >= 1, got " + rows);
        }
        Map<String, Long> sizes = sizes(rows);
        List<GeneratedTable> out = new ArrayList<>();
        for (String t : tables) {
            GeneratedTable empty = empty(t);
            long n = sizes.get(t);
            List<Row> made = new ArrayList<>((int) n);
            for (long id = 1; id <= n; id++) {
                made.add(row(t, id, sizes, new SplittableRandom(seed * 0x9E3779B97F4A7C15L + t.hashCode() * 31L + id)));
            }
            out.add(empty.withRows(made));
        }
        return out;
    }

    private static Row row(String table, long id, Map<String, Long> sizes, SplittableRandom r) {
        return switch (table) {
            case SALES ->
                Row.of(
                        id,
                        ref(PRODUCT, sizes, r),
                        ref(STORE, sizes, r),
                        ref(CUSTOMER, sizes, r),
                        ref(CALENDAR, sizes, r),
                        1 + r.nextInt(10),
                        BigDecimal.valueOf(100 + r.nextInt(99_900), 2));
            case PRODUCT ->
                Row.of(id, text(r, 12), pick(CATEGORIES, r), BigDecimal.valueOf(100 + r.nextInt(49_900), 2));
            case STORE -> Row.of(id, text(r, 16), pick(KINDS, r), ref(CITY, sizes, r));
            case CITY -> Row.of(id, text(r, 10), pick(COUNTRIES, r));
            case CUSTOMER -> Row.of(id, text(r, 16), pick(SEGMENTS, r));
            default -> {
                LocalDate day = FIRST_DAY.plusDays(id - 1);
                yield Row.of(
                        id, day, day.getYear(), WEEKDAYS.get(day.getDayOfWeek().getValue() - 1));
            }
        };
    }

    private static long ref(String table, Map<String, Long> sizes, SplittableRandom r) {
        return 1 + r.nextLong(sizes.get(table));
    }

    private static String pick(List<String> values, SplittableRandom r) {
        return values.get(r.nextInt(values.size()));
    }

    /** 4 to {@code maxLength} lower-case letters. */
    private static String text(SplittableRandom r, int maxLength) {
        char[] chars = new char[4 + r.nextInt(maxLength - 3)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) ('a' + r.nextInt(26));
        }
        return new String(chars);
    }
}
