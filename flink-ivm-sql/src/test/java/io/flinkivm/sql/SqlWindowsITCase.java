package io.flinkivm.sql;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.TIMESTAMP;
import static org.assertj.core.api.Assertions.assertThat;

import io.flinkivm.core.plan.Planner;
import io.flinkivm.flink.IvmOptions;
import io.flinkivm.flink.WindowEmit;
import io.flinkivm.flink.types.DeadLetter;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.runtime.typeutils.ExternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Window table functions in FlinkIvmSql.sql against Flink SQL's own window aggregates and window join
 * on the same tables and watermarks, at parallelism 2, heap and RocksDB. The tables come from one
 * source subtask each with a watermark after every row (its largest time so far less 5 s, less 1 ms),
 * so which rows are late is the same for both: in the aggregates' tables one row in ten trails by up
 * to four times the bound. A row counts in its windows that are still open (Flink's window aggregates
 * do the same); one whose windows all closed is one dead letter of the view.
 */
class SqlWindowsITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());

    static final long BOUND = 5_000;

    static final DataType BID =
            ROW(FIELD("auction", BIGINT()), FIELD("price", BIGINT()), FIELD("dateTime", TIMESTAMP(3)));
    static final DataType AUCTION =
            ROW(FIELD("id", BIGINT()), FIELD("seller", BIGINT()), FIELD("dateTime", TIMESTAMP(3)));

    static final String TUMBLE = "SELECT auction, window_start, window_end, SUM(price) AS total, COUNT(*) AS n"
            + " FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))"
            + " GROUP BY auction, window_start, window_end";
    static final String HOP = "SELECT window_start, window_end, COUNT(*) AS n, MAX(price) AS top"
            + " FROM TABLE(HOP(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '5' SECOND, INTERVAL '15' SECOND))"
            + " GROUP BY window_start, window_end";
    static final String CUMULATE = "SELECT auction, window_start, window_end, SUM(price) AS total"
            + " FROM TABLE(CUMULATE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '4' SECOND, INTERVAL '12' SECOND))"
            + " GROUP BY auction, window_start, window_end";
    static final String JOIN = "SELECT b.auction, b.price, a.seller, b.window_start, b.window_end"
            + " FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND)) b"
            + " JOIN TABLE(TUMBLE(TABLE auction, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND)) a"
            + " ON b.auction = a.id AND b.window_start = a.window_start AND b.window_end = a.window_end";

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        long seed = 11;
        for (String sql : List.of(TUMBLE, HOP, CUMULATE, JOIN)) {
            for (String backend : List.of("hashmap", "rocksdb")) {
                // The fallback (first-order delta joins) on one backend of the aggregate and of the join.
                boolean fallback = (sql.equals(TUMBLE) && backend.equals("hashmap"))
                        || (sql.equals(JOIN) && backend.equals("rocksdb"));
                out.add(Arguments.of(
                        sql.substring(sql.indexOf("TABLE(") + 6, sql.indexOf("(TABLE")),
                        sql,
                        backend,
                        seed++,
                        fallback ? Planner.Strategy.FALLBACK : Planner.Strategy.AUTO));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {2} {4}")
    @MethodSource("cases")
    void sameAsFlinkSqlsWindowOperators(
            String function, String sql, String backend, long seed, Planner.Strategy strategy) throws Exception {
        Random random = new Random(seed);
        // A window join in Flink SQL takes the smaller watermark of its two inputs at each row, so late rows
        // there depend on how the inputs interleave: the join's tables have rows out of order within the bound only.
        boolean join = sql.equals(JOIN);
        List<Row> bids = rows(random, 300, join ? 0 : 10, false);
        List<Row> auctions = join ? rows(random, 60, 0, true) : List.of();
        // A row is late when its last window closed: it ends at the next multiple of the tumble's size,
        // of the hop's slide plus its size, or of the cumulation's size.
        long step = sql.equals(HOP) ? 5_000 : sql.equals(CUMULATE) ? 12_000 : 10_000;
        long size = sql.equals(HOP) ? 15_000 : step;
        long late = join ? 0 : lateRows(bids, step, size);
        assertThat(join || late > 0).as("late rows among the bids").isTrue();

        Configuration c = new Configuration();
        c.setString("pipeline.generic-types", "false");
        c.setString("parallelism.default", "2");
        c.setString("state.backend.type", backend);
        c.setString("table.optimizer.agg-phase-strategy", "ONE_PHASE");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        register(tEnv, env, "bid", BID, bids);
        if (join) {
            register(tEnv, env, "auction", AUCTION, auctions);
        }

        // A trigger every 25 inserts per ingest subtask, so that windows close (and their state goes) while
        // rows still come; on RocksDB, final rows only, as Flink SQL's window aggregates emit them.
        IvmOptions options = IvmOptions.defaults().withSnapshotEvery(25).withStrategy(strategy);
        if (backend.equals("rocksdb")) {
            options = options.withWindowEmit(WindowEmit.FINAL);
        }
        SqlView view = FlinkIvmSql.sql(tEnv, sql, options);
        assertThat(view.explain()).contains("Windows:", "collected by window (window_start)");
        assertThat(view.explain().contains("first-order delta joins"))
                .as(view.explain())
                .isEqualTo(strategy == Planner.Strategy.FALLBACK);
        try (CloseableIterator<Row> ivm = tEnv.toChangelogStream(view.table()).collectAsync();
                CloseableIterator<Row> flink =
                        tEnv.toChangelogStream(tEnv.sqlQuery(sql)).collectAsync();
                CloseableIterator<DeadLetter> dead = view.deadLetters().collectAsync()) {
            env.execute(function + " " + backend);
            List<List<Object>> expected = SqlTestTables.changelogResult(flink);
            assertThat(expected).isNotEmpty();
            assertThat(SqlTestTables.changelogResult(ivm))
                    .as("%s\n%s", sql, view.explain())
                    .containsExactlyInAnyOrderElementsOf(expected);
            List<String> reasons = new ArrayList<>();
            dead.forEachRemaining(d -> reasons.add(d.reason()));
            assertThat(reasons)
                    .hasSize((int) late)
                    .allSatisfy(r -> assertThat(r).startsWith("late: window ["));
        }
    }

    /** Rows about a second apart, out of order within the bound, one in {@code lateOneIn} up to four bounds behind. */
    private static List<Row> rows(Random random, int n, int lateOneIn, boolean auctions) {
        List<Row> out = new ArrayList<>();
        long clock = 1_000_000;
        for (int i = 0; i < n; i++) {
            clock += random.nextInt(2_000);
            long behind = lateOneIn > 0 && random.nextInt(lateOneIn) == 0
                    ? random.nextInt((int) (4 * BOUND))
                    : random.nextInt((int) BOUND);
            LocalDateTime t = LocalDateTime.ofInstant(Instant.ofEpochMilli(clock - behind), ZoneOffset.UTC);
            out.add(
                    auctions
                            ? Row.of((long) i % 8, 100L + i % 3, t)
                            : Row.of((long) random.nextInt(8), 1L + random.nextInt(50), t));
        }
        return out;
    }

    /** How many rows come after the watermark (the largest time before them, less BOUND, less 1 ms) passed their last window. */
    private static long lateRows(List<Row> rows, long step, long size) {
        long watermark = Long.MIN_VALUE;
        long largest = Long.MIN_VALUE;
        long late = 0;
        for (Row r : rows) {
            long t = millis(r);
            late += t - Math.floorMod(t, step) + size - 1 <= watermark ? 1 : 0;
            largest = Math.max(largest, t);
            watermark = largest - BOUND - 1;
        }
        return late;
    }

    private static long millis(Row r) {
        return ((LocalDateTime) r.getField(2)).toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    private static void register(
            StreamTableEnvironment tEnv, StreamExecutionEnvironment env, String name, DataType type, List<Row> rows) {
        tEnv.createTemporaryView(
                name,
                tEnv.fromDataStream(
                        env.fromData(rows, ExternalTypeInfo.<Row>of(type))
                                .setParallelism(1)
                                .assignTimestampsAndWatermarks(WatermarkStrategy.<Row>forGenerator(x -> new PerRow())
                                        .withTimestampAssigner((r, previous) -> millis(r)))
                                .setParallelism(1),
                        Schema.newBuilder()
                                .fromRowDataType(type)
                                .watermark("dateTime", "SOURCE_WATERMARK()")
                                .build()));
    }

    /** A watermark after every row: the largest time so far - BOUND - 1 ms. */
    static final class PerRow implements WatermarkGenerator<Row> {
        private long largest = Long.MIN_VALUE;

        @Override
        public void onEvent(Row event, long timestamp, WatermarkOutput output) {
            if (timestamp > largest) {
                largest = timestamp;
                output.emitWatermark(new Watermark(largest - BOUND - 1));
            }
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {}
    }
}
