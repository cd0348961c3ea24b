package io.flinkivm.bench;

import io.flinkivm.examples.nexmark.NexmarkTables;
import io.flinkivm.examples.queries.PublishedQuery;
import io.flinkivm.examples.tables.GeneratedTable;
import io.flinkivm.examples.tpch.TpchTables;
import io.flinkivm.sql.translate.SqlSchemas;
import io.flinkivm.sql.translate.SqlTranslation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A SQL query as the bench measures it: its text, run as it is by flink-ivm ({@code FlinkIvmSql.sql}) and
 * by Flink SQL, over generated tables whose primary keys hold (TPC-H's from the TPC-H generator,
 * Nexmark's, or the snowflake's, {@link SnowflakeTables}), streamed as one shuffled interleaving of the tables' rows ({@link SqlStream}). n is the
 * number of rows in the stream, over all its tables.
 *
 * @param name the {@code query} column of results.csv and the {@code --queries} name
 * @param title what the query computes, for the report
 * @param sql the query
 * @param tables the tables it reads, in the order of the stream's table indices
 * @param source {@link #TPCH}, {@link #NEXMARK} or {@link #SNOWFLAKE}: whose generator makes the tables
 * @param eventTime the tables' event-time column, or null: a windowed query's tables get a watermark
 *     {@link #WATERMARK_DELAY} behind it, and the stream is in event order instead of shuffled
 */
record SqlDataset(String name, String title, String sql, List<String> tables, String source, String eventTime) {
    /** How far a windowed dataset's watermark lags its tables' event time. */
    static final String WATERMARK_DELAY = "INTERVAL '5' SECOND";

    static final String TPCH = "tpch";
    static final String NEXMARK = "nexmark";
    static final String SNOWFLAKE = "snowflake";

    /** A dataset without event time: its stream is shuffled. */
    SqlDataset(String name, String title, String sql, List<String> tables, String source) {
        this(name, title, sql, tables, source, null);
    }

    SqlDataset {
        tables = List.copyOf(tables);
        if (!List.of(TPCH, NEXMARK, SNOWFLAKE).contains(source)) {
            throw new IllegalArgumentException("source must be tpch, nexmark or snowflake, not " + source);
        }
    }

    /** A published query ({@link PublishedQuery}) under its own name. */
    static SqlDataset published(String name, String title) {
        PublishedQuery q = PublishedQuery.load(name);
        return new SqlDataset(name, title, q.sql(), q.tables(), name.startsWith(NEXMARK) ? NEXMARK : TPCH);
    }

    /** The tables without rows: names, types, keys. */
    List<GeneratedTable> schemas() {
        List<GeneratedTable> out = new ArrayList<>();
        for (String t : tables) {
            out.add(
                    switch (source) {
                        case TPCH -> TpchTables.empty(t);
                        case NEXMARK -> NexmarkTables.empty(t);
                        default -> SnowflakeTables.empty(t);
                    });
        }
        return timed(out);
    }

    /** {@code tables} with this dataset's event time and watermark, if it has one. */
    private List<GeneratedTable> timed(List<GeneratedTable> tables) {
        if (eventTime == null) {
            return tables;
        }
        return tables.stream()
                .map(t -> t.withEventTime(eventTime, WATERMARK_DELAY))
                .toList();
    }

    /** The tables as the command line's {@code --schema} writes them. */
    String schemaText() {
        return GeneratedTable.schemaText(schemas());
    }

    /** The query's translation over its tables. */
    SqlTranslation translation() {
        return SqlTranslation.of(sql, SqlSchemas.parse(schemaText()));
    }

    /**
     * Each table's rows per row of the stream (its share of n) under the generator's proportions:
     * TPC-H's table sizes per unit of scale factor, Nexmark's 1 : 3 : 46, the snowflake's rows per 1,000.
     */
    Map<String, Double> proportions() {
        Map<String, Double> sizes = new LinkedHashMap<>();
        for (String t : tables) {
            sizes.put(
                    t,
                    switch (source) {
                        case TPCH -> TpchTables.ROWS_PER_SCALE_FACTOR.get(t);
                        case SNOWFLAKE -> SnowflakeTables.ROWS_PER_THOUSAND.get(t);
                        default ->
                            (double)
                                    switch (t) {
                                        case NexmarkTables.PERSON -> NexmarkTables.PERSON_PROPORTION;
                                        case NexmarkTables.AUCTION -> NexmarkTables.AUCTION_PROPORTION;
                                        default -> NexmarkTables.BID_PROPORTION;
                                    };
                    });
        }
        return sizes;
    }

    /** TPC-H's scale factor whose rows of these tables are about 3 % more than n (nation and region: fixed). */
    double scaleFactor(int n) {
        double perUnit = 0;
        for (double rows : proportions().values()) {
            perUnit += rows;
        }
        return Math.max(TpchWorkload.MIN_SCALE_FACTOR, n * 1.03 / perUnit);
    }

    /** How the stream of n rows is made, for the report. */
    String describe(int n) {
        String data = switch (source) {
            case TPCH -> String.format(Locale.ROOT, "TPC-H rows (io.trino.tpch) at scale factor %.5f", scaleFactor(n));
            case NEXMARK ->
                String.format(
                        Locale.ROOT,
                        "the first %,d events of the seeded Nexmark generator (persons : auctions : bids = 1 :"
                                + " 3 : 46)",
                        NexmarkTables.eventsFor(Math.round(n * 1.03), tables));
            default ->
                String.format(
                        Locale.ROOT,
                        "%,d rows of the seeded snowflake generator (per 1,000: 900 sales, 60 customers, 25"
                                + " products, 10 days, 4 stores, 1 city)",
                        Math.round(n * 1.03));
        };
        return title + "; " + data + " of " + String.join(", ", tables)
                + (eventTime == null
                        ? ", every row of them shuffled into one stream (a row may come before its key row)"
                        : ", in the order of their " + eventTime + " (a watermark " + WATERMARK_DELAY + " behind it)")
                + ", the first n = " + n;
    }

    /** The stream of exactly {@code n} rows; the same arguments give the same stream. */
    SqlStream generate(int n, long seed) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        double grow = 1.03;
        while (true) {
            List<GeneratedTable> generated = switch (source) {
                case TPCH -> TpchTables.generate(scaleFactor(n) * grow / 1.03, tables);
                case NEXMARK ->
                    NexmarkTables.generate(NexmarkTables.eventsFor(Math.round(n * grow), tables), seed, tables);
                default -> SnowflakeTables.generate(Math.round(n * grow), seed, tables);
            };
            long rows = generated.stream().mapToLong(t -> t.rows().size()).sum();
            if (rows >= n) {
                return eventTime == null
                        ? SqlStream.interleave(generated, n, source, seed)
                        : SqlStream.inEventOrder(timed(generated), n, source, seed);
            }
            grow *= 1.1;
        }
    }
}
