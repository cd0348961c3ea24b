package io.flinkivm.sql.translate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flinkivm.core.oracle.KDatabase;
import io.flinkivm.core.oracle.NaiveEvaluator;
import io.flinkivm.core.plan.UnsupportedPlanException;
import io.flinkivm.core.query.Tuple;
import io.flinkivm.core.semiring.Ring;
import io.flinkivm.core.semiring.Semiring;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * COUNT(DISTINCT x): the translation (x joins the head), the fold of the pairs into groups, and the
 * refusals, checked against counts made by hand.
 */
class DistinctGroupsTest {
    static final Map<String, SqlTable> BIDS =
            SqlSchemas.parse("bid(auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, dt STRING);"
                    + " auction(id BIGINT NOT NULL, category BIGINT, PRIMARY KEY (id))");

    static final String[][] ROWS = {
        {"1", "10", "500", "Google", "d1"},
        {"1", "10", "20000", "Google", "d1"},
        {"2", "10", "700", "Apple", "d1"},
        {"2", "11", "2000000", "Apple", "d1"},
        {"3", "\\N", "900", "Apple", "d2"},
        {"3", "12", "\\N", "Google", "d2"},
    };

    @Test
    void theDistinctArgumentJoinsTheHeadAfterTheGroupedValues() {
        SqlTranslation t = SqlTranslation.of(
                "SELECT dt, COUNT(*) AS n, COUNT(DISTINCT bidder) AS bidders FROM bid GROUP BY dt", BIDS);
        assertThat(t.query().toString()).startsWith("Q(dt,bidder) :- bid(bidder,dt)");
        assertThat(t.distinctGroups().groupArity()).isEqualTo(1);
        assertThat(t.distinctGroups().needsPairCounts()).isFalse();
        assertThat(t.explain())
                .contains("bidders BIGINT = the number of non-NULL bidder with c1 > 0 in the group")
                .contains("distinct: COUNT(DISTINCT ...) joins bidder to the head");
    }

    @Test
    void nexmarkQ15sCountsAgreeWithCountsByHand() throws Exception {
        String sql = "SELECT dt, COUNT(*) AS total_bids,"
                + " COUNT(*) FILTER (WHERE price < 10000) AS rank1_bids,"
                + " COUNT(DISTINCT bidder) AS total_bidders,"
                + " COUNT(DISTINCT bidder) FILTER (WHERE price < 10000) AS rank1_bidders,"
                + " COUNT(DISTINCT bidder) FILTER (WHERE price >= 1000000) AS rank3_bidders,"
                + " COUNT(DISTINCT auction) AS total_auctions, SUM(price) AS total, MIN(channel) AS first_channel"
                + " FROM bid GROUP BY dt";
        SqlTranslation t = SqlTranslation.of(sql, BIDS);
        assertThat(t.query().head()).containsExactly("dt", "bidder", "auction");
        assertThat(t.distinctGroups().needsPairCounts()).isTrue();
        List<List<Object>> expected = List.of(
                List.of("d1", 4L, 2L, 2L, 1L, 1L, 2L, 2021200L, "Apple"),
                Arrays.asList("d2", 2L, 1L, 1L, 0L, 0L, 1L, 900L, "Apple"));
        assertThat(folded(t, ROWS.length)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void aPairLeavesWhenItsLastRowIsDeleted() throws Exception {
        SqlTranslation t = SqlTranslation.of(
                "SELECT dt, COUNT(DISTINCT bidder) AS bidders, COUNT(*) AS n FROM bid GROUP BY dt", BIDS);
        Ring<?> ring = DistinctGroups.ring(t.semiring());
        assertThat(foldWithDeletes(t, ring)).containsExactlyInAnyOrder(List.of("d1", 1L, 1L), List.of("d2", 1L, 1L));
    }

    @Test
    void refusesWhatItDoesNotMaintain() {
        assertThatThrownBy(() -> SqlTranslation.of("SELECT COUNT(DISTINCT bidder, auction) FROM bid", BIDS))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("COUNT(DISTINCT ...) of several values at line 1, column 8 is not supported");
        assertThatThrownBy(() -> SqlTranslation.of(
                        "SELECT COUNT(DISTINCT b.bidder + a.category) FROM bid b, auction a WHERE a.id = b.auction",
                        BIDS))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining(
                        "COUNT(DISTINCT b.bidder + a.category) over the tables b and a at line 1, column 23");
        assertThatThrownBy(() -> SqlTranslation.of("SELECT AVG(DISTINCT price) FROM bid", BIDS))
                .isInstanceOf(UnsupportedPlanException.class)
                .hasMessageContaining("AVG(DISTINCT ...) at line 1, column 8 is not supported");
    }

    @Test
    void minAndMaxOfDistinctValuesAreTheirPlainExtremes() {
        SqlTranslation t = SqlTranslation.of("SELECT MIN(DISTINCT price) AS low FROM bid", BIDS);
        assertThat(t.distinctGroups()).isNull();
        assertThat(t.query().head()).isEmpty();
    }

    /** The groups of the first {@code n} rows: the naive evaluator's result tuples folded, as SQL rows. */
    static List<List<Object>> folded(SqlTranslation t, int n) throws Exception {
        return fold(t, t.semiring(), ROWS, n, false);
    }

    private static <T> List<List<Object>> fold(SqlTranslation t, Semiring<T> k, String[][] rows, int n, boolean x)
            throws Exception {
        KDatabase<T> db = new KDatabase<>(k);
        TableInput bid = t.table("bid");
        for (int i = 0; i < n; i++) {
            for (TableInput.Insert insert : bid.inserts(bid.fromText(Arrays.asList(rows[i])))) {
                db.insert(insert.relation(), insert.tuple(), SqlTranslation.payloadIn(k, insert.payload()));
            }
        }
        return groups(t, NaiveEvaluator.evaluate(t.query(), k, db.relations()));
    }

    /** The result tuples folded into groups, each a row of the SELECT list. */
    static <T> List<List<Object>> groups(SqlTranslation t, Map<Tuple, T> result) {
        DistinctGroups d = t.distinctGroups();
        Ring<?> ring = DistinctGroups.ring(t.semiring());
        Map<Tuple, DistinctGroups.Group> groups = new HashMap<>();
        Map<List<Object>, Long> pairs = new HashMap<>();
        DistinctGroups.PairCounts<RuntimeException> counts = (g, p, delta) -> {
            List<Object> key = List.of(g, p);
            long v = pairs.getOrDefault(key, 0L) + delta;
            pairs.put(key, v);
            return v;
        };
        result.forEach((tuple, payload) -> {
            Tuple g = d.group(tuple);
            groups.put(g, d.apply(ring, groups.get(g), tuple, null, payload, counts));
        });
        List<List<Object>> out = new ArrayList<>();
        groups.forEach((g, group) -> out.add(Arrays.asList(t.outputRow(g, group))));
        return out;
    }

    /** Rows of d1 and d2 inserted, then bidder 10's three rows of d1 and d2's first deleted, over the ring. */
    @SuppressWarnings("unchecked")
    private static <R> List<List<Object>> foldWithDeletes(SqlTranslation t, Ring<R> ring) throws Exception {
        KDatabase<R> db = new KDatabase<>(ring);
        TableInput bid = t.table("bid");
        for (int i = 0; i < ROWS.length; i++) {
            for (TableInput.Insert insert : bid.inserts(bid.fromText(Arrays.asList(ROWS[i])))) {
                db.insert(insert.relation(), insert.tuple(), SqlTranslation.payloadIn(ring, insert.payload()));
            }
        }
        for (int i : new int[] {0, 1, 2, 4}) {
            for (TableInput.Insert insert : bid.inserts(bid.fromText(Arrays.asList(ROWS[i])))) {
                db.insert(
                        insert.relation(),
                        insert.tuple(),
                        ring.negate(SqlTranslation.payloadIn(ring, insert.payload())));
            }
        }
        Map<Tuple, R> result = new HashMap<>();
        NaiveEvaluator.evaluate(t.query(), ring, db.relations()).forEach((tuple, p) -> {
            if (!ring.isZero(p)) {
                result.put(tuple, p);
            }
        });
        return groups(t, result);
    }
}
