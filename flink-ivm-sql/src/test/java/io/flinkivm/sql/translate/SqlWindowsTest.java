package io.flinkivm.sql.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.plan.MaintenancePlan;
import io.flinkivm.core.plan.Planner;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.InvalidQueryException;
import io.flinkivm.core.window.WindowAssignment;
import io.flinkivm.core.window.WindowSpec;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Window table functions in FROM, over tables whose schema declares a WATERMARK. */
class SqlWindowsTest {

    static final Map<String, SqlTable> NEXMARK = SqlSchemas.parse(
            "bid(auction BIGINT, price BIGINT, dateTime TIMESTAMP(3), WATERMARK FOR dateTime AS dateTime - INTERVAL '5' SECOND);"
                    + " auction(id BIGINT, seller BIGINT, dateTime TIMESTAMP(3), WATERMARK FOR dateTime AS dateTime);"
                    + " person(id BIGINT, name STRING)");

    @Test
    void schemasDeclareTheEventTimeAttributeAsFlinksDdlDoes() {
        assertThat(NEXMARK.get("bid").timeAttribute()).isEqualTo("dateTime");
        assertThat(NEXMARK.get("person").timeAttribute()).isNull();
        assertThatThrownBy(() -> SqlSchemas.parse("t(a BIGINT, WATERMARK FOR a AS a)"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining(
                        "the WATERMARK of t is for a, a BIGINT; an event-time attribute is a TIMESTAMP(p)");
        assertThatThrownBy(() -> SqlSchemas.parse("t(ts TIMESTAMP(3), WATERMARK FOR ts AS ts + INTERVAL '1' SECOND)"))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("the watermark of ts must be ts or ts - INTERVAL '...' SECOND");
    }

    @Test
    void aTumblingWindowAggregateKeepsTheWindowAsTheAtomsLastColumns() {
        SqlTranslation t = SqlTranslation.of(
                "SELECT auction, window_start, window_end, SUM(price) AS total"
                        + " FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND))"
                        + " GROUP BY auction, window_start, window_end",
                NEXMARK);
        assertThat(t.query().toString())
                .isEqualTo("Q(auction,window_start,window_end) :- bid(auction,_1,window_start,window_end)");
        assertThat(t.windows().assignments())
                .containsExactly(
                        new WindowAssignment("bid", 1, WindowSpec.tumble(java.time.Duration.ofSeconds(10)), 0, 1000));
        assertThat(t.table("bid").inputColumns()).containsExactly("auction", "price", "dateTime");
        MaintenancePlan plan = Planner.plan(t.query(), t.semiring());
        assertThat(t.windows().explain(plan))
                .contains("bid: TUMBLE(size 10 s) on column 1; window_start, window_end are columns 2, 3")
                .contains("root view V[auction,window_start,window_end] (in the sink): collected by window"
                        + " (window_start) when the watermark passes its end");
    }

    @Test
    void aWindowJoinEquatesTheWindows() {
        SqlTranslation t = SqlTranslation.of(
                "SELECT a.seller, b.window_start, COUNT(*) AS bids"
                        + " FROM TABLE(HOP(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) b"
                        + " JOIN TABLE(HOP(TABLE auction, DESCRIPTOR(`dateTime`), INTERVAL '5' SECOND, INTERVAL '10' SECOND)) a"
                        + " ON a.id = b.auction AND a.window_start = b.window_start AND a.window_end = b.window_end"
                        + " GROUP BY a.seller, b.window_start",
                NEXMARK);
        assertThat(t.windows().assignments()).hasSize(2);
        assertThat(t.windows().of("bid").spec())
                .isEqualTo(WindowSpec.hop(java.time.Duration.ofSeconds(5), java.time.Duration.ofSeconds(10)));
        assertThat(t.query().body().get(0).terms().toString()).endsWith(", window_start, window_end]");
        assertThat(t.query().body().get(1).terms().toString()).endsWith(", window_start, window_end]");
    }

    @Test
    void aWindowedTableJoinsAnUnwindowedOne() {
        SqlTranslation t = SqlTranslation.of(
                "SELECT p.name, b.window_start, SUM(b.price) AS total"
                        + " FROM TABLE(CUMULATE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND)) b"
                        + " JOIN person p ON p.id = b.auction GROUP BY p.name, b.window_start",
                NEXMARK);
        assertThat(t.windows().assignments())
                .extracting(WindowAssignment::relation)
                .containsExactly("bid");
        MaintenancePlan plan = Planner.plan(t.query(), t.semiring());
        assertThat(t.windows().explain(plan)).contains("not keyed by a window, grows with its tables");
    }

    @Test
    void refusesWhatFlinkSqlRefusesOrThisVersionDoesNotTake() {
        assertThatThrownBy(() -> SqlTranslation.of(
                        "SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE person, DESCRIPTOR(id), INTERVAL '1' SECOND))"
                                + " GROUP BY window_start",
                        NEXMARK))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("TUMBLE over person needs its event-time attribute: declare WATERMARK FOR id");
        assertThatThrownBy(() -> SqlTranslation.of(
                        "SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(price), INTERVAL '1' SECOND))"
                                + " GROUP BY window_start",
                        NEXMARK))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("DESCRIPTOR(price) is not the event-time attribute of bid, which is dateTime");
        assertThatThrownBy(() -> SqlTranslation.of(
                        "SELECT window_start, COUNT(*) FROM TABLE(HOP(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '3' SECOND,"
                                + " INTERVAL '10' SECOND)) GROUP BY window_start",
                        NEXMARK))
                .isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("HOP's size (10000 ms) must be a multiple of its slide (3000 ms)");
        assertThatThrownBy(() -> SqlTranslation.of(
                        "SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '1' SECOND))"
                                + " WHERE window_start > TIMESTAMP '2020-01-01 00:00:00' GROUP BY window_start",
                        NEXMARK))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("window_start or window_end of bid in a condition");
    }
}
